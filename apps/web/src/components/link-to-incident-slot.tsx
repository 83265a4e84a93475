import type { EvidenceType } from '@lookout/contracts';
import { createContext, useContext, type ReactNode } from 'react';

/** What an area attaches to an incident: the evidence of the thing it shows. */
export type IncidentEvidenceDraft = {
  type: EvidenceType;
  description?: string;
  evidence?: Record<string, unknown>;
  component_id?: string;
  config_id?: string;
  check_id?: string;
  config_change_id?: string;
  config_analysis_id?: string;
};

export type LinkToIncidentRenderer = (props: {
  evidence: IncidentEvidenceDraft;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) => ReactNode;

/**
 * The Link-to-Incident dialog (spec 1 sections 2 to 5) as the console provides it to other
 * areas: set only while the incidents feature is on and the user may write incidents, so an
 * area shows its 'Link to Incident' action exactly when this is defined. The console shell
 * provides it (features do not import each other).
 */
export const LinkToIncidentContext = createContext<LinkToIncidentRenderer | undefined>(undefined);

export function useLinkToIncident(): LinkToIncidentRenderer | undefined {
  return useContext(LinkToIncidentContext);
}
