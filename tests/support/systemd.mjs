// systemd's own check of the units in deploy/, where the machine has it.
import { execFileSync } from 'node:child_process';

/** The path of systemd-analyze, or undefined after skipping the test `t` when it is missing. */
export function systemdAnalyze(t) {
  try {
    return execFileSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' }).trim();
  } catch {
    t.skip('systemd-analyze is not available');
    return undefined;
  }
}
