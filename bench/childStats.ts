/**
 * A benchmark child's answer to {type:'stats'}: its own CPU microseconds, RSS and, between a call with
 * loop 'start' and one with 'stop', the event-loop delay (monitorEventLoopDelay, 1 ms resolution). The
 * gateway children and the floor answer the same way, so their loops are compared under the same load.
 * The monitor is off in between: its 1 ms timer would wake an idle process 1,000 times a second.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export function answerStats(): void {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  process.on('message', (msg: { type: string; loop?: 'start' | 'stop' }) => {
    if (msg.type !== 'stats') return;
    const cpu = process.cpuUsage();
    const loopDelay = msg.loop === 'stop' && loop.count > 0 ? { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 } : null;
    if (msg.loop === 'stop') loop.disable();
    if (msg.loop === 'start') {
      loop.reset();
      loop.enable();
    }
    process.send?.({ type: 'stats', cpuMicros: cpu.user + cpu.system, rss: process.memoryUsage.rss(), loopDelay });
  });
}
