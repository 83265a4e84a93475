import { parseTopologyDocument, TOPOLOGY_KIND } from '@lookout/contracts';
import type { DocumentApplierFactory } from '../../cli/document-applier.js';
import { expressionProblems } from './topology-data-api-guard.js';
import { createTopologyRepository } from './topology-repository.js';

/**
 * `lookout apply -f topology.yaml`: a Topology document is validated (every problem named by its
 * field, expressions parsed) and created or updated in topologies with the command's source
 * (ConfigFile by default: read-only in the console). The planner runs it within seconds.
 */
export const topologyApplier: DocumentApplierFactory = ({ pool }) => {
  const repository = createTopologyRepository(pool);
  return {
    async apply(document, source) {
      const parsed = parseTopologyDocument(document);
      const problems = parsed.ok ? expressionProblems(parsed.document.spec) : parsed.errors;
      if (!parsed.ok || problems.length > 0) {
        throw new Error(`invalid ${TOPOLOGY_KIND}: ${problems.map((error) => error.message).join('; ')}`);
      }
      const { created } = await repository.upsertTopology(parsed.document, source);
      const { metadata, spec } = parsed.document;
      return `topology ${metadata.namespace}/${metadata.name} ${created ? 'created' : 'configured'} (components: ${spec.components?.length ?? 0})`;
    },
  };
};
