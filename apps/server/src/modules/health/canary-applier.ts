import type { DocumentApplierFactory } from '../../cli/document-applier.js';
import { AppError } from '../../http/app-error.js';
import { buildHealthService } from './health-service-factory.js';

/**
 * A Canary document through the same validation and write as `lookout apply -f` and /api/db,
 * for callers that take appliers by kind (the Kubernetes-compatible API).
 */
export const canaryApplier: DocumentApplierFactory = ({ pool, logger }) => {
  const service = buildHealthService({ pool, logger });
  return {
    async apply(document, source) {
      try {
        const result = await service.apply({ kind: 'system' }, { document, source });
        return `canary ${result.canary.namespace}/${result.canary.name} ${result.created ? 'created' : 'configured'}`;
      } catch (error) {
        // Validation answers carry the field in the message; the caller reports it as invalid.
        if (error instanceof AppError && error.statusCode < 500) throw new Error(error.message);
        throw error;
      }
    },
  };
};
