import { chmodSync, chownSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Database, DatabaseBusyError } from '../../../../electron/services/db/database';
import { isRefusal } from '../../../../electron/services/refusals';
import { migrate, MigrationError, type Migration } from '../../../../electron/services/db/migrate';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'veil-db-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const first: Migration = { id: 1, name: 'items', sql: 'CREATE TABLE items (id INTEGER PRIMARY KEY, n INTEGER NOT NULL);' };

describe('Database', () => {
  it('creates an owner-only WAL database with foreign keys on', async () => {
    const file = join(dir, 'a.sqlite');
    const db = await Database.open(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await db.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' });
    expect(await db.get('PRAGMA foreign_keys')).toEqual({ foreign_keys: 1 });
    await db.close();
  });

  it('creates the file owner-only before SQLite writes (WAL files too), and narrows an existing file of this user to 0600', async () => {
    const file = join(dir, 'fresh.sqlite');
    const db = await Database.open(file);
    await db.exec('CREATE TABLE t (x)');
    expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
    await db.close();
    const loose = join(dir, 'loose.sqlite');
    writeFileSync(loose, '');
    chmodSync(loose, 0o644);
    await (await Database.open(loose)).close();
    expect(statSync(loose).mode & 0o777).toBe(0o600);
  });

  // Giving a file to another user needs root (CI runs as root).
  it.runIf(process.getuid?.() === 0)('refuses a database file that belongs to another user', async () => {
    const file = join(dir, 'theirs.sqlite');
    writeFileSync(file, '');
    chmodSync(file, 0o666);
    chownSync(file, 65534, 65534);
    await expect(Database.open(file)).rejects.toThrow(/belongs to another user/);
    expect(statSync(file).mode & 0o777).toBe(0o666);
  });

  it('answers a write lock held elsewhere past the busy timeout with DatabaseBusyError, writing nothing; then works again', async () => {
    const file = join(dir, 'busy.sqlite');
    const db = await Database.open(file, { busyTimeoutMs: 50 });
    await migrate(db, [first]);
    const other = await Database.open(file);
    let release!: () => void;
    const held = other.transaction(() => new Promise<void>((resolve) => (release = resolve))); // holds the write lock
    await new Promise((r) => setTimeout(r, 20));
    await expect(db.run('INSERT INTO items (n) VALUES (1)')).rejects.toThrow(DatabaseBusyError);
    await expect(db.transaction((tx) => tx.run('INSERT INTO items (n) VALUES (2)'))).rejects.toThrow(/the vault is busy with another write .*nothing was changed/);
    release();
    await held;
    await db.run('INSERT INTO items (n) VALUES (3)');
    expect(await db.all('SELECT n FROM items')).toEqual([{ n: 3 }]);
    expect(isRefusal(new DatabaseBusyError())).toBe(true); // the bridge answers 422 with the message
    await Promise.all([db.close(), other.close()]);
  });

  it('serialises concurrent transactions on one connection (no lost updates)', async () => {
    const db = await Database.open(join(dir, 'b.sqlite'));
    await migrate(db, [first]);
    await db.run('INSERT INTO items (id, n) VALUES (1, 0)');
    await Promise.all(
      Array.from({ length: 40 }, () =>
        db.transaction(async (tx) => {
          const row = await tx.get<{ n: number }>('SELECT n FROM items WHERE id = 1');
          await new Promise((r) => setTimeout(r, 1));
          await tx.run('UPDATE items SET n = $n WHERE id = 1', { n: row!.n + 1 });
        }),
      ),
    );
    expect(await db.get('SELECT n FROM items WHERE id = 1')).toEqual({ n: 40 });
    await db.close();
  });

  it('rolls back a failed transaction', async () => {
    const db = await Database.open(join(dir, 'c.sqlite'));
    await migrate(db, [first]);
    await expect(
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO items (n) VALUES ($n)', { n: 1 });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.all('SELECT * FROM items')).toEqual([]);
    await db.close();
  });

  it('reads as one unit: neither a write queued on the connection nor another connection’s commit lands between the statements of a read', async () => {
    const file = join(dir, 'r.sqlite');
    const db = await Database.open(file);
    await migrate(db, [first]);
    const other = await Database.open(file);
    const count = async (q: Pick<Database, 'get'>) => (await q.get<{ n: number }>('SELECT COUNT(*) AS n FROM items'))!.n;
    let queued: Promise<unknown> = Promise.resolve();
    const seen = await db.read(async (q) => {
      const before = await count(q);
      queued = db.run('INSERT INTO items (n) VALUES (1)');
      await other.run('INSERT INTO items (n) VALUES (2)');
      return [before, await count(q)];
    });
    await queued;
    expect(seen).toEqual([0, 0]);
    expect(await count(db)).toBe(2);
    await other.close();
    await db.close();
  });

  it('streams rows with each()', async () => {
    const db = await Database.open(join(dir, 'd.sqlite'));
    await migrate(db, [first]);
    for (let i = 0; i < 5; i++) await db.run('INSERT INTO items (n) VALUES ($n)', { n: i });
    const seen: number[] = [];
    expect(await db.each<{ n: number }>('SELECT n FROM items ORDER BY n', {}, (r) => seen.push(r.n))).toBe(5);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    await db.close();
  });
});

describe('migrate', () => {
  it('applies pending migrations once, in order', async () => {
    const db = await Database.open(join(dir, 'm.sqlite'));
    const second: Migration = { id: 2, name: 'more', sql: 'ALTER TABLE items ADD COLUMN label TEXT;' };
    expect(await migrate(db, [first])).toEqual([1]);
    expect(await migrate(db, [first, second])).toEqual([2]);
    expect(await migrate(db, [first, second])).toEqual([]);
    await db.close();
  });

  it('refuses a migration that changed after it was applied', async () => {
    const db = await Database.open(join(dir, 'x.sqlite'));
    await migrate(db, [first]);
    const edited = { ...first, sql: first.sql.replace('NOT NULL', '') };
    await expect(migrate(db, [edited])).rejects.toThrow(/Migration 1 "items" has changed/);
    await db.close();
  });

  it('refuses a database migrated by a newer version', async () => {
    const db = await Database.open(join(dir, 'y.sqlite'));
    await migrate(db, [first, { id: 2, name: 'future', sql: 'SELECT 1;' }]);
    await expect(migrate(db, [first])).rejects.toBeInstanceOf(MigrationError);
    await db.close();
  });
});
