import { Component, type ErrorInfo, type ReactNode } from 'react';
import { createErrorId } from '../lib/error-id';

export interface ErrorFallbackProps {
  error: Error;
  /** Generated when the error was caught; shown to the user and written to the console log. */
  errorId: string;
  /** Renders the children again. */
  reset: () => void;
}

export interface ErrorBoundaryProps {
  children: ReactNode;
  fallback: (props: ErrorFallbackProps) => ReactNode;
  /** When any of these change (e.g. the path), a shown error is cleared. */
  resetKeys?: readonly unknown[];
  onReset?: () => void;
}

interface ErrorBoundaryState {
  error: Error | null;
  errorId: string | null;
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

function changed(a: readonly unknown[] = [], b: readonly unknown[] = []): boolean {
  return a.length !== b.length || a.some((value, index) => !Object.is(value, b[index]));
}

/**
 * Catches render errors below it. A fallback may re-throw an error it does not handle (e.g. a page
 * boundary that only handles chunk failures): the error then reaches the next boundary up.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, errorId: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: toError(error), errorId: createErrorId() };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`[${this.state.errorId ?? 'error'}]`, error, info.componentStack);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.error && changed(previous.resetKeys, this.props.resetKeys)) this.reset();
  }

  reset = (): void => {
    this.props.onReset?.();
    this.setState({ error: null, errorId: null });
  };

  override render(): ReactNode {
    const { error, errorId } = this.state;
    if (!error || !errorId) return this.props.children;
    return this.props.fallback({ error, errorId, reset: this.reset });
  }
}
