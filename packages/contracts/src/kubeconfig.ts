import { z } from 'zod';

/**
 * The Kubernetes-compatible API kubectl talks to with a downloaded kubeconfig (spec 1 section
 * 2.3, docs/kubeconfig.md): the server in the file is Lookout's public URL plus this path.
 */
export const KUBERNETES_API_PREFIX = '/api/kubernetes';
/** How long a kubeconfig's token is accepted; download a new file after that. */
export const KUBECONFIG_TOKEN_TTL_DAYS = 90;
/** The file name the download is saved under. */
export const KUBECONFIG_FILE_NAME = 'lookout-kubeconfig.yaml';
/** The name of the cluster, user and context inside the file. */
export const KUBECONFIG_CONTEXT = 'lookout';

/** Texts of the 'Download and install kubeconfig' dialog (spec 1 section 2.3). */
export const KUBECONFIG_TEXTS = {
  menuEntry: 'Download kubeconfig',
  title: 'Download and install kubeconfig',
  download: 'Download kubeconfig',
  downloadStep: 'Download the kubeconfig file:',
  commandStep: 'Then list the canaries with kubectl and that file:',
  learnMore: 'Learn more',
  close: 'Close',
} as const;

/** The command the dialog shows, for the file where the browser saves it. */
export const kubectlCommand = (file = `~/Downloads/${KUBECONFIG_FILE_NAME}`) =>
  `kubectl --kubeconfig ${file} get canaries -A`;

/** One kubeconfig token of the signed-in person (`GET /api/kubeconfig/tokens`); never the token itself. */
export const kubeconfigTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type KubeconfigToken = z.infer<typeof kubeconfigTokenSchema>;
export const kubeconfigTokenListSchema = z.array(kubeconfigTokenSchema);

/** `DELETE /api/kubeconfig/tokens/{id}` path. */
export const kubeconfigTokenParamsSchema = z.object({ id: z.string().uuid({ error: 'must be a UUID' }) });
