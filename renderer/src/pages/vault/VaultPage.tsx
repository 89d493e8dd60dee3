/**
 * Vault page: the analyst's private datasets — list, create, edit, delete (hard, with
 * compaction), sample datasets in one click, charts of labels / splits / PII, a PII rescan,
 * and the curation table with its record drawer. Everything refreshes on `vault.changed`.
 */
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import type { VeilApi } from '../../../../electron/shared/contract';
import { connection } from '../../api/client';
import { PageFrame } from '../../components/PageFrame';
import { Section } from '../../components/Section';
import { useApiQuery } from '../../components/useApiQuery';
import { useAsyncAction } from '../../components/useAsyncAction';
import { DatasetDialog } from './DatasetDialog';
import { DatasetList } from './DatasetList';
import { DatasetChartsSection } from './DatasetChartsSection';
import { DatasetOverview } from './DatasetOverview';
import { DeleteDatasetDialog } from './DeleteDatasetDialog';
import { ExportDialog } from './ExportDialog';
import { ImportDialog } from './ImportDialog';
import { MenuButton } from './MenuButton';
import { PiiRescanAction } from './PiiRescanAction';
import { RecordsPanel } from './RecordsPanel';
import { loadedSample, SAMPLES, sampleLoadedMessage, sampleRequest, type SampleKind } from './samples';
import { useRemovedDataset } from './useRemovedDataset';
import { useVaultRevision } from './useVaultRevision';
import { RetryAlert } from '../../components/RetryAlert';

const SELECTED_KEY = 'veil.vault.dataset';
type Dialog = 'create' | 'edit' | 'import' | 'export' | null;

function VaultView({ api }: { api: VeilApi }) {
  const { revision, changed } = useVaultRevision(api);
  // What depends on the selected dataset (statistics, records) refreshes at the revision the list
  // was read at, not before: a dataset deleted elsewhere leaves the list before anything reads it.
  const datasets = useApiQuery(async () => ({ list: await api['vault.listDatasets']({}), revision }), [api, revision]);
  const listedAt = datasets.data?.revision ?? 0;
  const [selectedId, setSelectedId] = useState<number | null>(() => Number(localStorage.getItem(SELECTED_KEY)) || null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [doomed, setDoomed] = useState<DatasetDto | null>(null);
  const removal = useRemovedDataset(revision, listedAt);
  const list = (datasets.data?.list ?? []).filter((d) => d.id !== removal.hiddenId);
  const dataset = list.find((d) => d.id === selectedId) ?? list[0] ?? null;
  const stats = useApiQuery(() => (dataset ? api['vault.stats']({ dataset: dataset.id }) : Promise.resolve(undefined)), [api, listedAt], dataset?.id);
  const sample = useAsyncAction();
  const [sampleLoaded, setSampleLoaded] = useState<DatasetDto | null>(null);

  const select = (id: number) => {
    setSelectedId(id);
    localStorage.setItem(SELECTED_KEY, String(id));
  };
  const saved = (d: DatasetDto) => (setDialog(null), select(d.id), changed());
  const loadSample = async (kind: SampleKind) => {
    setNotice(null);
    setSampleLoaded(null);
    const existing = loadedSample(kind, list);
    if (existing) return setSampleLoaded(existing);
    const created = await sample.run(() => api['vault.createSample'](sampleRequest(kind)));
    if (created) saved(created);
  };

  return (
    <PageFrame
      title="Vault"
      maxWidth="none"
      actions={
        <>
          <Button variant="contained" onClick={() => setDialog('create')}>
            New dataset
          </Button>
          <MenuButton variant="outlined" options={SAMPLES} disabled={sample.busy} onPick={(kind) => void loadSample(kind as SampleKind)}>
            {sample.busy ? 'Loading sample…' : 'Load sample dataset'}
          </MenuButton>
        </>
      }
    >
      <RetryAlert what="list the datasets" error={datasets.error} onRetry={datasets.reload} />
      {sample.error && <Alert severity="error">Could not load the sample: {sample.error}</Alert>}
      {sampleLoaded && (
        <Alert
          severity="info"
          onClose={() => setSampleLoaded(null)}
          action={
            <Button color="inherit" size="small" onClick={() => (select(sampleLoaded.id), setSampleLoaded(null))}>
              Open it
            </Button>
          }
        >
          {sampleLoadedMessage(sampleLoaded)}
        </Alert>
      )}
      {notice && <Alert severity="info" onClose={() => setNotice(null)}>{notice}</Alert>}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '220px minmax(0, 1fr)' }, gap: 2, alignItems: 'start' }}>
        <Section title="Datasets">
          {datasets.data ? <DatasetList datasets={list} selected={dataset?.id ?? null} onSelect={select} /> : <Typography variant="body2">Loading…</Typography>}
        </Section>
        {dataset && (
          <Stack spacing={2} sx={{ minWidth: 0 }}>
            <DatasetOverview
              dataset={dataset}
              stats={stats.data}
              statsError={stats.error}
              actions={
                <>
                  <Button onClick={() => setDialog('edit')}>Edit…</Button>
                  <Button onClick={() => setDialog('import')}>Import file…</Button>
                  <Button onClick={() => setDialog('export')}>Export…</Button>
                  <PiiRescanAction api={api} dataset={dataset} onRescanned={changed} />
                  <Button color="error" onClick={() => setDoomed(dataset)}>
                    Delete dataset…
                  </Button>
                </>
              }
            />
            <RecordsPanel key={dataset.id} api={api} dataset={dataset} tags={(stats.data?.tags ?? []).map((t) => t.tag)} revision={listedAt} onChanged={changed} />
            {stats.data && <DatasetChartsSection stats={stats.data} />}
          </Stack>
        )}
      </Box>
      {(dialog === 'create' || dialog === 'edit') && <DatasetDialog api={api} dataset={dialog === 'edit' ? dataset : null} onDone={saved} onClose={() => setDialog(null)} />}
      {dialog === 'import' && dataset && <ImportDialog api={api} dataset={dataset} onImported={changed} onClose={() => setDialog(null)} />}
      {dialog === 'export' && dataset && <ExportDialog api={api} dataset={dataset} onClose={() => setDialog(null)} />}
      {doomed && <DeleteDatasetDialog api={api} dataset={doomed} onRemoving={removal.removing} onDone={(message) => (removal.removed(), setDoomed(null), setNotice(message), changed())} onClose={() => setDoomed(null)} />}
    </PageFrame>
  );
}

export default function VaultPage() {
  return connection.api ? <VaultView api={connection.api} /> : null;
}
