import { Component, type ErrorInfo, type ReactNode } from 'react';

/** A page that throws shows a sentence and a way out, never a blank screen. */
export class ErrorBoundary extends Component<
  { children: ReactNode; resetKey?: string },
  { error: Error | null }
> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidUpdate(prev: { resetKey?: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Kiln: a page failed to render', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <main className="page">
        <div className="card" role="alert">
          <h1>This page ran into a problem</h1>
          <p className="muted">{this.state.error.message}</p>
          <button type="button" className="primary" onClick={() => this.setState({ error: null })}>
            Try again
          </button>{' '}
          <a className="button" href="/">
            Back to the studio
          </a>
        </div>
      </main>
    );
  }
}
