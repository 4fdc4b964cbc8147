// systemd's own check of the units in deploy/, where the machine has it.
import { execFileSync } from 'node:child_process';

/**
 * The path of systemd-analyze, or, when it is missing, the test skipped with a message: `t` is
 * the runner's `test` (or `test.info()`), whose skip ends the running test there.
 */
export function systemdAnalyze(t) {
  try {
    return execFileSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' }).trim();
  } catch {
    t.skip(true, 'systemd-analyze is not available');
    return undefined;
  }
}
