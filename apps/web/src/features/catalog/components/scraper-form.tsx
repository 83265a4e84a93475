import {
  SCHEDULE_OPTION_SETS,
  SCRAPER_SPEC_TEMPLATE,
  SCRAPER_TOASTS,
  SCRAPERS_PAGE_TEXTS,
  SCRAPERS_PATH,
} from '@lookout/contracts';
import { useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ScheduleField } from '@/components/settings-resource/schedule-field';
import { scheduleInSpecText, withScheduleInSpecText } from '@/components/settings-resource/settings-resource-fns';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextField, formClasses } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast';
import { YamlEditor } from '@/components/ui/yaml-editor';
import { toastError } from '@/lib/api-client';
import { ScraperNotWrittenError, useDeleteScraper, useSaveScraper, type ScraperRow } from '../api/scrapers-api';
import { parseScraperSpecText, scraperSpecToText, scraperWriteProblems } from '../lib/scraper-fns';

export interface ScraperFormProps {
  /** The scraper to edit; absent to create one. */
  scraper?: ScraperRow;
  /** Read-only without write, or for a scraper another source owns (spec 3 section 5). */
  editable: boolean;
  /** The signed-in user, recorded as `created_by` of a new scraper. */
  currentUserId: string;
  /** Where saving, cancelling or deleting returns; the scrapers list when absent. */
  listPath?: string;
}

/**
 * The Spec tab: Name, Namespace and the ScrapeConfig spec in a YAML editor (JSON is YAML too).
 * The server validates the spec; a refusal lists each wrong field under the editor, in the
 * server's words. Saving, cancelling or deleting (soft) returns to the list.
 */
export function ScraperForm({ scraper, editable, currentUserId, listPath = SCRAPERS_PATH }: ScraperFormProps) {
  const navigate = useNavigate();
  const save = useSaveScraper();
  const remove = useDeleteScraper();
  const [name, setName] = useState(scraper?.name ?? '');
  const [namespace, setNamespace] = useState(scraper?.namespace ?? 'default');
  const [specText, setSpecText] = useState(scraper ? scraperSpecToText(scraper.spec) : SCRAPER_SPEC_TEMPLATE);
  // Read once per edit of the text, not on every render of the form.
  const schedule = useMemo(() => scheduleInSpecText(specText), [specText]);
  const [nameError, setNameError] = useState<string>();
  const [problems, setProblems] = useState<string[]>([]);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const specLabelId = useId();
  const problemsId = useId();
  const busy = save.isPending || remove.isPending;
  const backToList = () => void navigate(listPath);

  const submit = () => {
    const trimmed = name.trim();
    setNameError(trimmed === '' ? SCRAPERS_PAGE_TEXTS.nameRequired : undefined);
    const parsed = parseScraperSpecText(specText);
    setProblems(parsed.ok ? [] : [parsed.message]);
    if (trimmed === '' || !parsed.ok) return;
    const fields = { name: trimmed, namespace: namespace.trim() || 'default', spec: parsed.spec };
    save.mutate(
      scraper ? { kind: 'update', id: scraper.id, fields } : { kind: 'create', fields, createdBy: currentUserId },
      {
        onSuccess: (row) => {
          toast.success(scraper ? SCRAPER_TOASTS.updated(row.name) : SCRAPER_TOASTS.created(row.name));
          backToList();
        },
        onError: (error) => {
          if (error instanceof ScraperNotWrittenError) {
            toast.error(error.message);
            return;
          }
          const refused = scraperWriteProblems(error);
          if (refused.length > 0) setProblems(refused);
          else toastError(error);
        },
      },
    );
  };

  return (
    <>
      <form
        noValidate
        aria-label="Scraper"
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={SCRAPERS_PAGE_TEXTS.fields.name}
            autoComplete="off"
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
            // Namespace and name are fixed once the scraper exists (spec 2 section 5).
            disabled={!editable || busy || scraper !== undefined}
            error={nameError}
          />
          <TextField
            label={SCRAPERS_PAGE_TEXTS.fields.namespace}
            autoComplete="off"
            value={namespace}
            onChange={(event) => setNamespace(event.target.value)}
            disabled={!editable || busy || scraper !== undefined}
          />
        </div>
        <div className="sm:w-1/2 sm:pr-2">
          {/* The spec's `schedule`, from the spec's option sets (spec 2 section 9); it edits the YAML. */}
          <ScheduleField
            value={schedule}
            onChange={(value) => setSpecText(withScheduleInSpecText(specText, value))}
            options={SCHEDULE_OPTION_SETS.default}
            disabled={!editable || busy}
          />
        </div>
        <div>
          <span id={specLabelId} className={formClasses.label}>
            {SCRAPERS_PAGE_TEXTS.fields.spec}
          </span>
          <p className={formClasses.hint}>{SCRAPERS_PAGE_TEXTS.specHint}</p>
          <div className="mt-1">
            <YamlEditor
              value={specText}
              onChange={(value) => {
                setSpecText(value);
                if (problems.length > 0) setProblems([]);
              }}
              readOnly={!editable}
              label={SCRAPERS_PAGE_TEXTS.fields.spec}
              describedBy={problems.length > 0 ? problemsId : undefined}
              className="h-96"
            />
          </div>
          {problems.length > 0 && (
            <ul id={problemsId} role="alert" className={`${formClasses.error} list-disc pl-5`}>
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
        </div>
        <div className="flex items-center justify-between gap-2 border-t border-slate-200 pt-4">
          <div>
            {scraper && editable && (
              <Button
                variant="ghost"
                className="text-red-700! hover:bg-red-50! hover:text-red-800!"
                onClick={() => setConfirmingDelete(true)}
                disabled={busy}
              >
                {SCRAPERS_PAGE_TEXTS.delete}
              </Button>
            )}
          </div>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={backToList} disabled={busy}>
              {SCRAPERS_PAGE_TEXTS.cancel}
            </Button>
            {editable && (
              <Button type="submit" disabled={busy}>
                {scraper
                  ? save.isPending
                    ? SCRAPERS_PAGE_TEXTS.updating
                    : SCRAPERS_PAGE_TEXTS.update
                  : save.isPending
                    ? SCRAPERS_PAGE_TEXTS.saving
                    : SCRAPERS_PAGE_TEXTS.save}
              </Button>
            )}
          </div>
        </div>
      </form>
      {scraper && editable && (
        <ConfirmDialog
          open={confirmingDelete}
          onOpenChange={(open) => {
            if (!remove.isPending) setConfirmingDelete(open);
          }}
          title={SCRAPERS_PAGE_TEXTS.deleteConfirm(scraper.name)}
          isPending={remove.isPending}
          onConfirm={() =>
            remove.mutate(
              { id: scraper.id, name: scraper.name },
              {
                onSuccess: () => {
                  toast.success(SCRAPER_TOASTS.deleted(scraper.name));
                  setConfirmingDelete(false);
                  backToList();
                },
                onError: (error) =>
                  error instanceof ScraperNotWrittenError ? toast.error(error.message) : toastError(error),
              },
            )
          }
        />
      )}
    </>
  );
}
