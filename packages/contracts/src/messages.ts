/**
 * User-facing texts fixed by the specification. Server and web import them from here so
 * that a wording change happens in one place.
 */
export const HTTP_MESSAGES = {
  /** spec 1, section 8 */
  timeout: 'Request timed out. Please try again.',
  network: 'Network Error. Please try again.',
  offline: 'No internet connection. Please try again.',
  generic: 'An error occurred',
} as const;

export const CLIPBOARD_MESSAGES = {
  unavailable: 'Clipboard not available',
  failed: 'Failed to copy to clipboard',
  copied: 'Copied to clipboard',
} as const;

export const VIEW_MESSAGES = {
  renderError: 'Sorry.. there was an error',
  unauthorized: 'Unauthorized - You do not have permission to access this page',
  emptyTable: 'No data available',
  emptyResult: 'No result',
  notFoundTitle: 'Page not found',
  notFoundBody: 'There is nothing at this address. Check the link, or go back to a page you know.',
  badSession: 'Bad Session. Please try logging out and logging in again, if the problem persist, please contact us.',
  unknownError: 'Unknown error',
  goBack: 'Go back',
} as const;

export const VALIDATION_MESSAGES = {
  required: 'This field is required',
} as const;

/**
 * Texts of the console shell (layout, gate screens) that the spec does not word itself.
 * They live here so the web and the end-to-end tests read the same wording.
 */
export const SHELL_MESSAGES = {
  /** Heading of the home page while the build registers no console area. */
  noAreasTitle: 'No console areas yet',
  /** Body of the home page while the build registers no console area. */
  noAreasBody: 'No console areas are enabled in this build yet.',
  /** Label of the disclosure that holds a crashed page's error message. */
  errorDetails: 'Error details',
  /** Button that renders a crashed page again. */
  tryAgain: 'Try again',
} as const;

/**
 * Refusal of a cross-site write (docs/access.md, "Cross-site requests"): an unsafe method under
 * /api whose Origin or Sec-Fetch-Site shows another site, while the session would come from
 * the browser's cookie rather than a session token.
 */
export const CROSS_SITE_REFUSAL = {
  code: 'cross_site_request',
  message: (method: string, path: string, evidence: string) =>
    `Refused ${method} ${path}: the request came from another site (${evidence}), and a browser's sign-in cookie does not act for other sites. Use Lookout's own pages, or call the API with a session token (Authorization: Bearer <token>).`,
} as const;
