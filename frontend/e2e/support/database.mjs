// The server's database made unavailable the way an operator's tool would, for its outage answer.
import { spawn } from 'node:child_process';

/**
 * Another process holds the SQLite file's write lock (Python's sqlite3, as a backup or a
 * `sqlite3` shell would), so the server's writes cannot commit: its outage answer, 503.
 */
export async function holdDatabase(path) {
  const holder = spawn(
    '/usr/bin/python3',
    [
      '-c',
      'import sqlite3, sys\n' +
        'db = sqlite3.connect(sys.argv[1], isolation_level=None)\n' +
        'db.execute("BEGIN EXCLUSIVE")\n' +
        'print("held", flush=True)\n' +
        'sys.stdin.read()\n' +
        'db.execute("ROLLBACK")\n',
      path,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  await new Promise((resolve, reject) => {
    holder.stdout.once('data', resolve);
    holder.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  const exited = new Promise((resolve) => holder.once('exit', resolve));
  return {
    release() {
      if (holder.exitCode === null) holder.stdin.end();
      return exited;
    },
  };
}
