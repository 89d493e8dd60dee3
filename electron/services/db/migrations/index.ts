/**
 * Every schema migration of the app database, in order. Append only: never edit or
 * reorder an entry that has shipped (the checksum check refuses it); add a new one.
 * Ids: 1 vault, 2 ledger, then whatever comes next.
 */
import type { Migration } from '../migrate';

export const migrations: Migration[] = [];
