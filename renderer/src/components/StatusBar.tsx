/** Bottom status bar: active model backend, data directory, connection to the services. */
import { Box, Chip, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import type { AppInfo } from '../../../electron/shared/api/app';
import { connection } from '../api/client';
import { onStatusRefresh } from './statusRefresh';

const POLL_MS = 10_000;

export function StatusBar() {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [connected, setConnected] = useState<boolean | null>(null);
  useEffect(() => {
    const api = connection.api;
    if (!api) return;
    const poll = () =>
      api['app.info']({}).then(
        (value) => (setInfo(value), setConnected(true)),
        () => setConnected(false),
      );
    void poll();
    const timer = setInterval(poll, POLL_MS);
    const off = onStatusRefresh(() => void poll());
    return () => (clearInterval(timer), off());
  }, []);
  return (
    <Box
      component="footer"
      role="status"
      aria-label="status bar"
      sx={{ display: 'flex', gap: 2, alignItems: 'center', px: 2, py: 0.5, borderTop: 1, borderColor: 'divider' }}
    >
      <Chip
        size="small"
        color={connected ? 'success' : connected === false ? 'error' : 'default'}
        label={connected ? `Connected (${connection.transport})` : connected === false ? 'Disconnected' : 'Connecting…'}
        data-testid="status-connection"
      />
      <Typography variant="body2" data-testid="status-backend">
        Model backend: {info?.backend ?? '…'}
      </Typography>
      <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1 }} data-testid="status-data-dir" title={info?.dataDir}>
        Data: {info?.dataDir ?? '…'}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {info ? `Veil ${info.version}` : ''}
      </Typography>
    </Box>
  );
}
