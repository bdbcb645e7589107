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
  /**
   * Whether the error was already on screen before this update. The update that delivers an
   * error may also be the one that changes `resetKeys` (a navigation whose new page fails to
   * load): clearing it then would render the failing page again at once, and a lazy screen
   * would start its whole retry cycle over (issue #18 saw 8 attempts in 12 s instead of 4).
   */
  isShown: boolean;
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
  override state: ErrorBoundaryState = { error: null, errorId: null, isShown: false };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: toError(error), errorId: createErrorId(), isShown: false };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`[${this.state.errorId ?? 'error'}]`, error, info.componentStack);
  }

  override componentDidUpdate(
    previous: ErrorBoundaryProps,
    previousState: ErrorBoundaryState,
  ): void {
    const { error, isShown } = this.state;
    if (!error) return;
    // Only an error the reader has already seen is cleared by a change of keys (see `isShown`).
    if (
      previousState.error === error &&
      isShown &&
      changed(previous.resetKeys, this.props.resetKeys)
    ) {
      this.reset();
    } else if (!isShown) {
      this.setState({ isShown: true });
    }
  }

  override componentDidMount(): void {
    if (this.state.error && !this.state.isShown) this.setState({ isShown: true });
  }

  reset = (): void => {
    this.props.onReset?.();
    this.setState({ error: null, errorId: null, isShown: false });
  };

  override render(): ReactNode {
    const { error, errorId } = this.state;
    if (!error || !errorId) return this.props.children;
    return this.props.fallback({ error, errorId, reset: this.reset });
  }
}
