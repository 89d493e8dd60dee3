/**
 * Models page: the active backend (the reference learner is a baseline, not an LLM), load
 * a GGUF into llama.cpp with progress and see its metadata, the hardware (always), connect
 * an OpenAI-compatible server, switch back, unload, and try a prompt.
 */
import { Box, CircularProgress, Typography } from '@mui/material';
import type { VeilApi } from '../../../../electron/shared/contract';
import { connection } from '../../api/client';
import { PageFrame } from '../../components/PageFrame';
import { requestStatusRefresh } from '../../components/statusRefresh';
import { useApiQuery } from '../../components/useApiQuery';
import { ActiveBackendCard } from './ActiveBackendCard';
import { GgufDetails } from './GgufDetails';
import { GgufLoadForm } from './GgufLoadForm';
import { HardwareCard } from './HardwareCard';
import { RemoteBackendForm } from './RemoteBackendForm';
import { TryPromptPanel } from './TryPromptPanel';
import { RetryAlert } from '../../components/RetryAlert';

export function ModelsView({ api }: { api: VeilApi }) {
  const { data: status, error, loading, reload: reloadStatus } = useApiQuery(() => api['model.status']({}), [api]);
  const reload = () => (reloadStatus(), requestStatusRefresh());
  return (
    <PageFrame title="Models" maxWidth={1000} busy={loading && !status}>
      <RetryAlert what="read the model status" error={error} onRetry={reloadStatus} />
      {loading && !status && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 2 }}>
          <CircularProgress size={24} aria-label="Loading model status" />
          <Typography variant="body2" color="text.secondary">
            Reading the model status…
          </Typography>
        </Box>
      )}
      {status && (
        <>
          <ActiveBackendCard api={api} status={status} onChanged={reload} />
          <GgufLoadForm api={api} loadingJobId={status.loadingJobId} onFinished={reload} />
          {status.gguf && <GgufDetails gguf={status.gguf} />}
          <HardwareCard hardware={status.hardware} />
          <TryPromptPanel api={api} />
          <RemoteBackendForm api={api} onConnected={reload} />
        </>
      )}
    </PageFrame>
  );
}

export default function ModelsPage() {
  return connection.api ? <ModelsView api={connection.api} /> : null;
}
