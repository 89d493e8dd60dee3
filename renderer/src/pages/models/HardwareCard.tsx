/**
 * The hardware summary, shown whether or not a GGUF is loaded: CPU, cores, memory, the
 * llama.cpp thread default and the installed llama.cpp builds; once a GGUF is loaded,
 * also what llama.cpp reports from the model host (backend, threads, memory, system info).
 */
import { Typography } from '@mui/material';
import type { ModelStatus } from '../../../../electron/shared/api/model';
import { CollapsibleText } from '../../components/CollapsibleText';
import { formatBytes } from '../../components/format';
import { KeyValueTable, type KeyValueRow } from '../../components/KeyValueTable';
import { Section } from '../../components/Section';

type Hardware = ModelStatus['hardware'];

function machineRows(hardware: Hardware): KeyValueRow[] {
  return [
    ['CPU', hardware.cpuModel],
    ['Logical cores', String(hardware.cpuCores)],
    ['System memory', `${formatBytes(hardware.totalMemoryBytes)} (${formatBytes(hardware.freeMemoryBytes)} free)`],
    ['Platform', hardware.platform],
    ['llama.cpp builds', hardware.llamaBuilds.length ? hardware.llamaBuilds.join(', ') : 'none installed for this platform: GGUF models cannot be loaded'],
    ['Default threads', `${hardware.defaultThreads} (half the cores; set per load)`],
  ];
}

function modelHostRows(host: NonNullable<Hardware['modelHost']>): KeyValueRow[] {
  return [
    ['Compute backend', host.backend],
    ['Threads', `${host.threads} (of ${host.cpuMathCores} cores llama.cpp sees)`],
    ['Model memory', formatBytes(host.modelBytes)],
    ['Context memory', formatBytes(host.contextBytes)],
    ['Model host process memory', formatBytes(host.rssBytes)],
  ];
}

export function HardwareCard({ hardware }: { hardware: Hardware }) {
  const host = hardware.modelHost;
  return (
    <Section title="Hardware">
      <KeyValueTable label="Machine" rows={machineRows(hardware)} />
      <Typography variant="subtitle1" component="h3">
        llama.cpp
      </Typography>
      {host ? (
        <>
          <KeyValueTable label="llama.cpp hardware" rows={modelHostRows(host)} />
          <CollapsibleText title="llama.cpp system info" text={host.systemInfo} />
        </>
      ) : (
        <Typography variant="body2">No GGUF is loaded: llama.cpp reports its backend, threads and memory once one is.</Typography>
      )}
    </Section>
  );
}
