/**
 * Errors that refuse a request on purpose — a bad path, an unknown dataset, an over-budget
 * release, a malformed GGUF, an unsupported event, a vault busy with another write — as
 * opposed to failures of Veil itself.
 * The bridge answers them with HTTP 422 (the caller can act on the message), failures 500.
 */
import { UnsupportedByPldError } from '../../core/accounting';
import { CalibrationError } from '../../core/accounting/calibration';
import { RdpUnsupportedEventError } from '../../core/accounting/rdp/curve';
import { GgufFormatError } from '../../core/model/gguf/ggufReader';
import { CapabilityError } from '../../core/model/languageModel';
import { DatabaseBusyError } from './db/database';
import { LedgerError } from './ledger/errors';
import { RefusalError } from './refusalError';
import { ModelPathError } from './model/ggufFile';
import { RunNotFoundError } from './synthesis/runStore';
import { VaultError } from './vault/datasets';

const REFUSALS = [
  RefusalError, VaultError, LedgerError, DatabaseBusyError, ModelPathError, RunNotFoundError, CalibrationError, GgufFormatError, CapabilityError, UnsupportedByPldError, RdpUnsupportedEventError,
];

export const isRefusal = (error: unknown): boolean => REFUSALS.some((refusal) => error instanceof refusal);
