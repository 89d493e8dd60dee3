/** Catches render errors in a page so the frame, navigation and status bar stay usable. */
import { Alert, Button, Stack } from '@mui/material';
import { Component, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: unknown }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey?: unknown }): void {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <Stack spacing={2} sx={{ p: 3 }}>
        <Alert severity="error" role="alert">
          This page failed: {this.state.error.message}
        </Alert>
        <Button variant="outlined" onClick={() => this.setState({ error: null })} sx={{ alignSelf: 'start' }}>
          Try again
        </Button>
      </Stack>
    );
  }
}
