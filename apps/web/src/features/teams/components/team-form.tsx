import { zodResolver } from '@hookform/resolvers/zod';
import {
  TEAM_DEFAULT_ICON,
  SETTINGS_RESOURCE_TEXTS,
  TEAM_TOASTS,
  TEAMS_PAGE_TEXTS,
  teamFormSchema,
  type TeamForm as TeamFormValues,
  type TeamRow,
} from '@lookout/contracts';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextField, formClasses } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast';
import { YamlEditor } from '@/components/ui/yaml-editor';
import { toastError } from '@/lib/api-client';
import { useDeleteTeam } from '../api/delete-team';
import { useSaveTeam } from '../api/save-team';
import { TeamNotWrittenError } from '../api/written-rows';
import { TEAMS_PATH } from '../lib/team-paths';
import { parseTeamSpecText, teamSpecToText } from '../lib/team-spec-fns';

function toastWriteError(error: unknown): void {
  if (error instanceof TeamNotWrittenError) toast.error(error.message);
  else toastError(error);
}

export interface TeamFormProps {
  /** The team to edit; absent to create one. */
  team?: TeamRow;
  /** Everything is read-only without write, or for a team another source owns. */
  editable: boolean;
  /** The signed-in user, recorded as `created_by` of a new team. */
  currentUserId: string;
}

/**
 * The Spec tab (spec 2 sections 2.8, 3.1 and 4): Name (required), Icon (default `group`) and
 * the team's spec in a YAML editor, which must read as a set of settings. Saving, cancelling
 * or deleting returns to the list (spec 3 section 2.6).
 */
export function TeamForm({ team, editable, currentUserId }: TeamFormProps) {
  const navigate = useNavigate();
  const save = useSaveTeam();
  const remove = useDeleteTeam();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const specLabelId = useId();
  const specErrorId = useId();
  const form = useForm<TeamFormValues>({
    resolver: zodResolver(teamFormSchema),
    defaultValues: {
      name: team?.name ?? '',
      icon: team ? (team.icon ?? '') : TEAM_DEFAULT_ICON,
      spec: teamSpecToText(team?.spec),
    },
  });
  const { errors } = form.formState;
  const busy = save.isPending || remove.isPending;
  const backToList = () => void navigate(TEAMS_PATH);

  const onSubmit = form.handleSubmit((values) => {
    const parsed = parseTeamSpecText(values.spec);
    if (!parsed.ok) {
      form.setError('spec', {
        message:
          parsed.problem.kind === 'syntax'
            ? `${TEAMS_PAGE_TEXTS.invalidSpec}: ${parsed.problem.message}`
            : TEAMS_PAGE_TEXTS.specNotObject,
      });
      return;
    }
    // The name is fixed once the team exists (spec 2 section 5): an update sends it as loaded.
    const fields = {
      name: team ? team.name : values.name,
      icon: values.icon === '' ? null : values.icon,
      spec: parsed.spec,
    };
    save.mutate(team ? { kind: 'update', id: team.id, fields } : { kind: 'create', fields, createdBy: currentUserId }, {
      onSuccess: (row) => {
        toast.success(team ? TEAM_TOASTS.updated(row.name) : TEAM_TOASTS.created(row.name));
        backToList();
      },
      onError: toastWriteError,
    });
  });

  const submitLabel = team
    ? save.isPending
      ? TEAMS_PAGE_TEXTS.updating
      : TEAMS_PAGE_TEXTS.update
    : save.isPending
      ? TEAMS_PAGE_TEXTS.saving
      : TEAMS_PAGE_TEXTS.save;

  return (
    <>
      <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Team" className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={TEAMS_PAGE_TEXTS.fields.name}
            autoComplete="off"
            required
            disabled={!editable || busy}
            readOnly={team !== undefined}
            hint={team ? SETTINGS_RESOURCE_TEXTS.nameLocked : undefined}
            error={errors.name?.message}
            {...form.register('name')}
          />
          <TextField
            label={TEAMS_PAGE_TEXTS.fields.icon}
            autoComplete="off"
            disabled={!editable || busy}
            error={errors.icon?.message}
            hint="An icon name such as group, or the address of an image."
            {...form.register('icon')}
          />
        </div>
        <div>
          <span id={specLabelId} className={formClasses.label}>
            {TEAMS_PAGE_TEXTS.fields.spec}
          </span>
          <p className={formClasses.hint}>{TEAMS_PAGE_TEXTS.specHint}</p>
          <div className="mt-1">
            <Controller
              control={form.control}
              name="spec"
              render={({ field }) => (
                <YamlEditor
                  value={field.value}
                  onChange={(value) => {
                    field.onChange(value);
                    if (errors.spec) form.clearErrors('spec');
                  }}
                  readOnly={!editable}
                  label={TEAMS_PAGE_TEXTS.fields.spec}
                  describedBy={errors.spec ? specErrorId : undefined}
                  className="h-72"
                />
              )}
            />
          </div>
          {errors.spec?.message && (
            <p id={specErrorId} role="alert" className={formClasses.error}>
              {errors.spec.message}
            </p>
          )}
        </div>
        <div className="flex items-center justify-between gap-2 border-t border-slate-200 pt-4">
          <div>
            {team && editable && (
              <Button
                variant="ghost"
                // `!`: the ghost look sets its own text and hover colours, which would win otherwise.
                className="text-red-700! hover:bg-red-50! hover:text-red-800!"
                onClick={() => setConfirmingDelete(true)}
                disabled={busy}
              >
                {TEAMS_PAGE_TEXTS.delete}
              </Button>
            )}
          </div>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={backToList} disabled={busy}>
              {TEAMS_PAGE_TEXTS.cancel}
            </Button>
            {editable && (
              <Button type="submit" disabled={busy}>
                {submitLabel}
              </Button>
            )}
          </div>
        </div>
      </form>
      {team && editable && (
        <ConfirmDialog
          open={confirmingDelete}
          onOpenChange={(open) => {
            if (!remove.isPending) setConfirmingDelete(open);
          }}
          title={TEAMS_PAGE_TEXTS.deleteConfirm(team.name)}
          isPending={remove.isPending}
          onConfirm={() =>
            remove.mutate(
              { id: team.id, name: team.name },
              {
                onSuccess: () => {
                  toast.success(TEAM_TOASTS.deleted(team.name));
                  setConfirmingDelete(false);
                  backToList();
                },
                onError: toastWriteError,
              },
            )
          }
        />
      )}
    </>
  );
}
