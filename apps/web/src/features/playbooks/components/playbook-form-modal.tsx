import { PLAYBOOK_TEXTS, PLAYBOOK_UI_TEXTS } from '@lookout/contracts';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField, formClasses } from '@/components/ui/form-field';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { YamlEditor } from '@/components/ui/yaml-editor';
import { getErrorMessage } from '@/lib/api-client';
import { usePlaybook, useSavePlaybook, type PlaybookRow } from '../api/playbooks-api';
import {
  NEW_PLAYBOOK_SPEC_YAML,
  readPlaybookForm,
  specToYaml,
  type PlaybookFormErrors,
} from '../lib/playbook-document';

const texts = PLAYBOOK_UI_TEXTS.form;

export interface PlaybookFormModalProps {
  /** The playbook to edit; undefined creates one. */
  id: string | undefined;
  onClose: () => void;
}

/** Create Playbook / Edit Playbook (spec 2 section 2.5): loads the stored row before editing. */
export function PlaybookFormModal({ id, onClose }: PlaybookFormModalProps) {
  const row = usePlaybook(id);
  const title = id === undefined ? texts.createTitle : texts.editTitle;
  if (id !== undefined && !row.data) {
    return (
      <Modal open onOpenChange={(open) => !open && onClose()} title={title} className="max-w-3xl">
        <p className="text-sm text-slate-500">{row.isError ? getErrorMessage(row.error) : 'Loading'}</p>
      </Modal>
    );
  }
  return <PlaybookForm id={id} row={row.data ?? undefined} title={title} onClose={onClose} />;
}

function PlaybookForm({
  id,
  row,
  title,
  onClose,
}: {
  id: string | undefined;
  row: PlaybookRow | undefined;
  title: string;
  onClose: () => void;
}) {
  const specId = useId();
  const [name, setName] = useState(row?.title ?? '');
  const [spec, setSpec] = useState(row ? specToYaml(row.spec) : NEW_PLAYBOOK_SPEC_YAML);
  const [errors, setErrors] = useState<PlaybookFormErrors>({});
  const save = useSavePlaybook();
  const creating = id === undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = readPlaybookForm(name, spec);
    if (!form.ok) {
      setErrors(form.errors);
      return;
    }
    setErrors({});
    save.mutate(
      { id, input: { title: form.title, spec: form.spec } },
      {
        onSuccess: () => {
          toast.success(creating ? PLAYBOOK_TEXTS.toasts.created : PLAYBOOK_TEXTS.toasts.updated);
          onClose();
        },
        onError: (error) => toast.error(PLAYBOOK_TEXTS.toasts.updateFailed(getErrorMessage(error))),
      },
    );
  };

  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={title} className="max-w-3xl">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <TextField
          label={texts.title}
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          {...(errors.title ? { error: errors.title } : {})}
        />
        <div>
          <span className={formClasses.label}>{texts.spec}</span>
          <div className="mt-1">
            <YamlEditor
              value={spec}
              onChange={setSpec}
              label={texts.spec}
              describedBy={errors.spec ? specId : undefined}
              className="h-[45vh] min-h-48"
            />
          </div>
          {errors.spec && (
            <ul id={specId} role="alert" className="mt-1 flex flex-col gap-0.5 text-sm text-red-600">
              {errors.spec.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
        </div>
        <ModalFooter className="mt-0">
          <Button variant="ghost" onClick={onClose}>
            {texts.cancel}
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {creating ? (save.isPending ? texts.saving : texts.save) : save.isPending ? texts.updating : texts.update}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
