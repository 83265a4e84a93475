import { INCIDENT_MESSAGES, INCIDENT_UI_TEXTS } from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { toastError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useIncidentUser } from '../lib/incident-user';
import { createComment } from '../api/incident-tree-api';
import { incidentKeys } from '../api/incident-keys';
import type { IncidentComment, IncidentDetail } from '../api/incident-types';

type NewComment = { hypothesisId: string; comment: string };

/**
 * Comment creation (spec 3 section 4): the comment appears at once in the cached incident and
 * is taken out again when the call fails.
 */
export function useAddComment(incidentId: string) {
  const queryClient = useQueryClient();
  const user = useIncidentUser();
  const key = incidentKeys.detail(incidentId);
  return useMutation({
    mutationFn: ({ hypothesisId, comment }: NewComment) =>
      createComment({ created_by: user.id, incident_id: incidentId, hypothesis_id: hypothesisId, comment }),
    onMutate: async ({ hypothesisId, comment }: NewComment) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<IncidentDetail | null>(key);
      const optimistic: IncidentComment = {
        id: `pending-${Date.now()}`,
        comment,
        created_at: new Date().toISOString(),
        hypothesis_id: hypothesisId,
        external_created_by: null,
        created_by: { id: user.id, name: user.name, avatar: user.avatar },
        pending: true,
      };
      if (previous) {
        queryClient.setQueryData<IncidentDetail>(key, {
          ...previous,
          hypotheses: previous.hypotheses.map((hypothesis) =>
            hypothesis.id === hypothesisId
              ? { ...hypothesis, comments: [...hypothesis.comments, optimistic] }
              : hypothesis,
          ),
        });
      }
      return { previous };
    },
    onError: (error, _input, context) => {
      if (context?.previous !== undefined) queryClient.setQueryData(key, context.previous);
      toastError(error);
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: key }),
        queryClient.invalidateQueries({ queryKey: incidentKeys.history(incidentId) }),
      ]),
  });
}

/** A comment with its author and time; a pending one is dimmed. */
export function CommentRow({ comment }: { comment: IncidentComment }) {
  const author = comment.created_by?.name ?? comment.external_created_by ?? '';
  return (
    <li className={comment.pending ? 'flex gap-2 opacity-60' : 'flex gap-2'}>
      <Avatar name={author || '?'} src={comment.created_by?.avatar} />
      <div className="min-w-0 text-sm">
        <div className="text-xs text-slate-500">
          <span className="font-medium text-slate-700">{author}</span> · {formatDateTime(comment.created_at)}
        </div>
        <p className="whitespace-pre-wrap text-slate-800">
          {comment.comment.replace(/@\[([^\]]+)\]\([^)]+\)/g, '@$1')}
        </p>
      </div>
    </li>
  );
}

/**
 * The comment form (spec 3 section 5): a hypothesis must be chosen ('Please select any
 * hypothesis') and the text is required; send is disabled while it is empty.
 */
export function CommentBox({
  incidentId,
  hypotheses,
  fixedHypothesisId,
}: {
  incidentId: string;
  hypotheses?: readonly { id: string; title: string }[];
  fixedHypothesisId?: string;
}) {
  const add = useAddComment(incidentId);
  const [text, setText] = useState('');
  const [hypothesisId, setHypothesisId] = useState(fixedHypothesisId ?? hypotheses?.[0]?.id ?? '');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!hypothesisId) return setError(INCIDENT_MESSAGES.selectHypothesis);
    if (!text.trim()) return setError(INCIDENT_MESSAGES.commentRequired);
    setError(undefined);
    add.mutate({ hypothesisId, comment: text.trim() });
    setText('');
  };
  return (
    <form onSubmit={submit} className="space-y-2">
      {!fixedHypothesisId && hypotheses && (
        <select
          aria-label={INCIDENT_UI_TEXTS.comment.hypothesis}
          className="w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
          value={hypothesisId}
          onChange={(event) => setHypothesisId(event.target.value)}
        >
          <option value="">{INCIDENT_MESSAGES.selectHypothesis}</option>
          {hypotheses.map((hypothesis) => (
            <option key={hypothesis.id} value={hypothesis.id}>
              {hypothesis.title}
            </option>
          ))}
        </select>
      )}
      <div className="flex gap-2">
        <textarea
          aria-label={INCIDENT_UI_TEXTS.comment.placeholder}
          placeholder={INCIDENT_UI_TEXTS.comment.placeholder}
          rows={2}
          className="min-w-0 flex-1 rounded-md border border-slate-300 px-2 py-1 text-sm"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <Button type="submit" disabled={!text.trim()}>
          {INCIDENT_UI_TEXTS.comment.send}
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
    </form>
  );
}
