import { INCIDENT_MESSAGES } from '@lookout/contracts';
import { Siren } from 'lucide-react';
import { useState } from 'react';
import { buttonClasses } from '@/components/ui/button';
import type { LinkEvidence } from '../api/link-to-incident-api';
import { LinkToIncidentDialog } from './link-to-incident-dialog';

/**
 * The 'Link to Incident' action other areas offer (a check's drawer): a button that opens the
 * dialog with the evidence of what is shown. Pages render it only for writers of incident
 * while the incidents feature is on (spec 1 section 2).
 */
export function LinkToIncidentButton({ evidence }: { evidence: LinkEvidence }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={buttonClasses('secondary')} onClick={() => setOpen(true)}>
        <Siren aria-hidden className="size-4" />
        {INCIDENT_MESSAGES.linkTitle}
      </button>
      {open && <LinkToIncidentDialog open onOpenChange={setOpen} evidence={evidence} />}
    </>
  );
}
