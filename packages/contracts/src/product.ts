/** The product name; every page title ends with it. */
export const PRODUCT_NAME = 'Lookout';

/**
 * The frontend version the user menu shows (spec 1, section 9).
 * The backend reports its own version through `GET /api/about`.
 */
export const FRONTEND_VERSION = '1.0.788';

/** Where the docs menu in the top bar points. */
export const DOCS_URL = 'https://github.com/lookout-console/lookout/tree/main/docs';

/** Text shown in place of a version that could not be read. */
export const UNKNOWN_VERSION = 'NA';
