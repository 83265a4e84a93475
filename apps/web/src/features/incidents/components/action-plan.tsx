import { INCIDENT_MESSAGES } from '@lookout/contracts';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Switch } from '@/components/ui/switch';
import type { IncidentDetail } from '../api/incident-types';
import { buildHypothesisTree } from '../lib/hypothesis-tree-fns';
import { HypothesisNodeView } from './hypothesis-node';

/**
 * The Action plan tab (spec 3 section 2.3): the hypothesis tree. `?comments=true` opens every
 * node's comments; the Expand/Collapse All switch opens or closes them all.
 */
export function ActionPlan({ incident, canWrite }: { incident: IncidentDetail; canWrite: boolean }) {
  const [params] = useSearchParams();
  const [allOpen, setAllOpen] = useState(params.get('comments') === 'true');
  const tree = buildHypothesisTree(incident.hypotheses);
  return (
    <div className="space-y-3">
      <div className="flex justify-end">
        <Switch
          label={allOpen ? INCIDENT_MESSAGES.collapseAll : INCIDENT_MESSAGES.expandAll}
          checked={allOpen}
          onCheckedChange={setAllOpen}
        />
      </div>
      <ul className="space-y-3">
        {tree.map((node) => (
          <HypothesisNodeView
            key={node.id}
            incidentId={incident.id}
            node={node}
            canWrite={canWrite}
            commentsOpen={allOpen}
          />
        ))}
      </ul>
    </div>
  );
}
