/** The release, as `cussec --version` prints it and an export names its generator. */
export const CUSSEC_VERSION = '0.1.0';
