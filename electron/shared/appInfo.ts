/** Application identity shared by every process; the version is package.json's (bundled at build time). */
import { version } from '../../package.json';

export const APP_NAME = 'Veil';
export const APP_VERSION: string = version;
