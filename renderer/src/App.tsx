/**
 * App frame: navigation (Alt+1…7 switch pages), light/dark theme, an error boundary
 * around the page, and the status bar.
 */
import { Alert, Box, CssBaseline, IconButton, List, ListItemButton, ListItemText, ThemeProvider, Tooltip, Typography, createTheme } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { connection } from './api/client';
import { ErrorBoundary } from './components/ErrorBoundary';
import { StatusBar } from './components/StatusBar';
import { routeFromHash, routes } from './routes';

type Mode = 'light' | 'dark';
const THEME_KEY = 'veil.theme';

function useHashRoute() {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const onChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return routeFromHash(hash);
}

export function App() {
  const [mode, setMode] = useState<Mode>(() => (localStorage.getItem(THEME_KEY) as Mode) ?? 'light');
  const theme = useMemo(() => createTheme({ palette: { mode } }), [mode]);
  const route = useHashRoute();
  useEffect(() => localStorage.setItem(THEME_KEY, mode), [mode]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const index = Number(e.key) - 1;
      if (e.altKey && index >= 0 && index < routes.length) window.location.hash = `#/${routes[index].path}`;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Box sx={{ display: 'flex', flexDirection: 'column', height: '100vh' }}>
        <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
          <Box component="nav" aria-label="main" sx={{ width: 200, borderRight: 1, borderColor: 'divider', display: 'flex', flexDirection: 'column' }}>
            <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1.5 }}>
              <Typography variant="h6" sx={{ flex: 1 }}>
                Veil
              </Typography>
              <Tooltip title={`Switch to ${mode === 'light' ? 'dark' : 'light'} theme`}>
                <IconButton aria-label="toggle theme" onClick={() => setMode(mode === 'light' ? 'dark' : 'light')} size="small">
                  {mode === 'light' ? '☾' : '☀'}
                </IconButton>
              </Tooltip>
            </Box>
            <List>
              {routes.map((r, i) => (
                <ListItemButton key={r.path} component="a" href={`#/${r.path}`} selected={r.path === route.path} aria-current={r.path === route.path ? 'page' : undefined} title={`Alt+${i + 1}`}>
                  <ListItemText primary={r.label} />
                </ListItemButton>
              ))}
            </List>
          </Box>
          <Box component="main" sx={{ flex: 1, overflow: 'auto' }}>
            {connection.api ? (
              <ErrorBoundary resetKey={route.path}>
                <route.Page />
              </ErrorBoundary>
            ) : (
              <Alert severity="warning" sx={{ m: 3 }}>
                Not connected: open Veil with the full address printed by `npm start` or `veil serve` (it carries the access token).
              </Alert>
            )}
          </Box>
        </Box>
        <StatusBar />
      </Box>
    </ThemeProvider>
  );
}
