/** Application identity shared by every process. */
export const APP_NAME = 'Veil';
export const APP_VERSION = '0.1.0';
