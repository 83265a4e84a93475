import { PLAYBOOK_UI_TEXTS } from '@lookout/contracts';
import { ChevronDown, Workflow } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { layoutClasses } from '@/components/layout/layout-classes';
import { buttonClasses } from '@/components/ui/button';
import { usePlaybooksForResource } from '../api/run-queries';
import { RunPlaybookModal } from './run-playbook-modal';

const texts = PLAYBOOK_UI_TEXTS.checkMenu;

/**
 * The check drawer's Playbooks menu (spec 2 sections 2.3 and 6): the playbooks that may run on
 * this check (`GET /api/playbook/list?check_id=`); choosing one opens the run modal for it with
 * the check already chosen.
 */
export function CheckPlaybooksMenu({ checkId }: { checkId: string }) {
  const [open, setOpen] = useState(false);
  const playbooks = usePlaybooksForResource({ check_id: checkId }, open);
  const [chosen, setChosen] = useState<{ id: string; title: string }>();
  return (
    <>
      <DropdownMenu.Root open={open} onOpenChange={setOpen}>
        <DropdownMenu.Trigger className={buttonClasses('secondary')}>
          <Workflow aria-hidden className="size-4" />
          {texts.label}
          <ChevronDown aria-hidden className="size-3.5" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" side="top" sideOffset={4} className={layoutClasses.menuContent}>
            {playbooks.isPending ? (
              <p className="px-2 py-1.5 text-slate-500">Loading</p>
            ) : (playbooks.data ?? []).length === 0 ? (
              <p className="px-2 py-1.5 text-slate-500">{texts.empty}</p>
            ) : (
              (playbooks.data ?? []).map((playbook) => (
                <DropdownMenu.Item
                  key={playbook.id}
                  className={layoutClasses.menuItem}
                  onSelect={() => setChosen({ id: playbook.id, title: playbook.title || playbook.name })}
                >
                  {playbook.title || playbook.name}
                </DropdownMenu.Item>
              ))
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {chosen && (
        <RunPlaybookModal playbook={chosen} target={{ check_id: checkId }} onClose={() => setChosen(undefined)} />
      )}
    </>
  );
}
