/**
 * Defaults and texts of the install snippets: the agents page's 'Installation Instructions'
 * (spec 2 section 2.6) and the integrations' 'Add via GitOps' forms (spec 2 section 2.7).
 */

/** GitOps defaults (spec 2 section 9). */
export const GITOPS_DEFAULT_NAMESPACE = 'mission-control';
export const GITOPS_DEFAULT_INTERVAL = '30m';

/** The warning every GitOps form shows above its generated snippets (spec 2 section 2.7). */
export const GITOPS_FLUX_WARNING = 'You will need to have Kubernetes chart installed in flux to use this option.';

/** The warning of the 'Installation Instructions' modal: the token cannot be shown again. */
export const AGENT_TOKEN_SHOWN_ONCE_WARNING =
  'The access token is shown only once: copy these instructions before you close this dialog.';

/** The agent's Kubernetes scrape intervals (spec 2 section 9), the default first in {@link AGENT_DEFAULT_SCRAPE_INTERVAL}. */
export const AGENT_SCRAPE_INTERVALS = ['1m', '5m', '10m', '30m', '1h', '2h', '6h', '12h', '24h'] as const;
export type AgentScrapeInterval = (typeof AGENT_SCRAPE_INTERVALS)[number];
export const AGENT_DEFAULT_SCRAPE_INTERVAL: AgentScrapeInterval = '30m';

/** Where an agent is installed and what its release is called in the generated snippets. */
export const AGENT_INSTALL_NAMESPACE = 'lookout';
export const AGENT_RELEASE_NAME = 'lookout-agent';

/** Patterns shared by the snippet inputs and the chart values. */
export const KUBERNETES_NAME_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const KUBERNETES_NAME_MAX_LENGTH = 63;
