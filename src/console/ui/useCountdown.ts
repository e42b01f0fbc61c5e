/** The seconds left of a wait (a 429's Retry-After), ticking each second: for a button that says how long to wait. */
import { useEffect, useState } from 'preact/hooks';

/** Seconds left of a wait that ends at `until` (epoch ms); 0 when none. */
export function useCountdown(until: number | null): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (until === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  return until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}
