/**
 * A form's one request: busy while it runs (a second submit meanwhile is ignored), the refusal kept for
 * the form to show. A page's many changes, with their notices, use admin/change.tsx.
 */
import { useRef, useState } from 'preact/hooks';

export interface Send {
  readonly busy: boolean;
  readonly error: Error | null;
  /** Runs `work` unless it runs already; true when it worked. */
  readonly send: (work: () => Promise<void>) => Promise<boolean>;
  /** Forgets the refusal shown. */
  readonly clear: () => void;
}

export function useSend(): Send {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const running = useRef(false);
  const send = async (work: () => Promise<void>): Promise<boolean> => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      await work();
      return true;
    } catch (failure) {
      setError(failure as Error);
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { busy, error, send, clear: () => setError(null) };
}
