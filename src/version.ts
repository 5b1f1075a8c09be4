/** The version of the API specification this service implements. */
export const SERVICE_VERSION = '1.1.0';
