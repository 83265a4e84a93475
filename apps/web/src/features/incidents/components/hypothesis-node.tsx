import {
  childHypothesisType,
  HYPOTHESIS_DISPROVE_STATUS,
  HYPOTHESIS_EDITOR_FALLBACK_STATUS,
  HYPOTHESIS_STATUS_LABELS,
  HYPOTHESIS_STATUSES,
  INCIDENT_MESSAGES,
  INCIDENT_UI_TEXTS,
  INCIDENT_UI_TIMINGS,
  type HypothesisStatus,
} from '@lookout/contracts';
import { useMutation } from '@tanstack/react-query';
import { ChevronDown, ChevronRight, MessageSquare, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { deleteHypothesis, updateHypothesis } from '../api/incident-tree-api';
import { useRefreshIncident, useTreeMutation } from '../api/use-incident';
import { humanize } from '../lib/incident-display';
import type { HypothesisNode as Node } from '../lib/hypothesis-tree-fns';
import { useDebouncedSave } from '../lib/use-debounced-save';
import { CommentBox, CommentRow } from './comment-box';
import { CreateHypothesisModal } from './create-hypothesis-modal';
import { EvidenceItem } from './evidence-item';

const H = INCIDENT_UI_TEXTS.hypothesis;

type Props = { incidentId: string; node: Node; canWrite: boolean; commentsOpen: boolean };

/**
 * One node of the action plan (spec 3 section 2.3): title and status edited in place (saved
 * after 1 s and 200 ms), 'Disprove', its evidence, its comments, 'Add {type}' and its children.
 * Deleting offers 'Disprove' instead.
 */
export function HypothesisNodeView({ incidentId, node, canWrite, commentsOpen }: Props) {
  const [title, setTitle] = useState(node.title);
  const [status, setStatus] = useState<HypothesisStatus>(node.status ?? HYPOTHESIS_EDITOR_FALLBACK_STATUS);
  const [showComments, setShowComments] = useState(commentsOpen);
  const [expanded, setExpanded] = useState(true);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [followed, setFollowed] = useState(commentsOpen);
  // The Expand/Collapse All switch overrides each node's own choice when it flips.
  if (followed !== commentsOpen) {
    setFollowed(commentsOpen);
    setShowComments(commentsOpen);
  }
  const save = useTreeMutation(incidentId, (patch: Parameters<typeof updateHypothesis>[1]) =>
    updateHypothesis(node.id, patch),
  );
  const refresh = useRefreshIncident(incidentId);
  // A failed delete is only logged (spec 3 section 8); the tree refreshes either way.
  const remove = useMutation({
    mutationFn: () => deleteHypothesis(node.id),
    onError: (error) => console.error('Deleting hypothesis failed', error),
    onSettled: refresh,
  });
  useDebouncedSave(status, INCIDENT_UI_TIMINGS.hypothesisStatusDebounceMs, (value) => save.mutate({ status: value }));
  useDebouncedSave(title, INCIDENT_UI_TIMINGS.hypothesisTitleDebounceMs, (value) => {
    if (value.trim()) save.mutate({ title: value.trim() });
  });
  const childType = childHypothesisType(node.type);
  const Chevron = expanded ? ChevronDown : ChevronRight;
  return (
    <li className="space-y-2" aria-label={`${humanize(node.type)} ${node.title}`}>
      <div className="rounded-md border border-slate-200 bg-white p-3">
        <div className="flex items-center gap-2">
          <button type="button" aria-label={expanded ? 'Collapse' : 'Expand'} onClick={() => setExpanded(!expanded)}>
            <Chevron aria-hidden className="size-4 text-slate-500" />
          </button>
          <span className="rounded bg-indigo-50 px-1.5 py-0.5 text-xs text-indigo-700">{humanize(node.type)}</span>
          <input
            aria-label={H.title}
            className="min-w-0 flex-1 rounded border border-transparent px-1 py-0.5 text-sm font-medium hover:border-slate-300"
            value={title}
            readOnly={!canWrite}
            onChange={(event) => setTitle(event.target.value)}
          />
          <select
            aria-label={H.state}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs"
            value={status}
            disabled={!canWrite}
            onChange={(event) => setStatus(event.target.value as HypothesisStatus)}
          >
            {HYPOTHESIS_STATUSES.map((value) => (
              <option key={value} value={value}>
                {HYPOTHESIS_STATUS_LABELS[value]}
              </option>
            ))}
          </select>
          {canWrite && status !== HYPOTHESIS_DISPROVE_STATUS && (
            <button
              type="button"
              className="text-xs text-slate-600 hover:underline"
              onClick={() => setStatus(HYPOTHESIS_DISPROVE_STATUS)}
            >
              {INCIDENT_MESSAGES.disprove}
            </button>
          )}
          <button
            type="button"
            aria-label={H.comments}
            aria-pressed={showComments}
            className="flex items-center gap-1 text-xs text-slate-600"
            onClick={() => setShowComments(!showComments)}
          >
            <MessageSquare aria-hidden className="size-4" />
            {node.comments.length}
          </button>
          {canWrite && node.type !== 'root' && (
            <button
              type="button"
              aria-label={H.delete}
              className="text-slate-400 hover:text-red-600"
              onClick={() => setDeleting(true)}
            >
              <Trash2 aria-hidden className="size-4" />
            </button>
          )}
        </div>
        {expanded && (
          <div className="mt-2 space-y-2 pl-6">
            {node.evidences.length > 0 && (
              <ul className="space-y-2" aria-label={H.evidence}>
                {node.evidences.map((evidence) => (
                  <EvidenceItem key={evidence.id} incidentId={incidentId} evidence={evidence} canWrite={canWrite} />
                ))}
              </ul>
            )}
            {showComments && (
              <div className="space-y-2 border-t border-slate-100 pt-2">
                <ul className="space-y-2">
                  {node.comments.map((comment) => (
                    <CommentRow key={comment.id} comment={comment} />
                  ))}
                </ul>
                {canWrite && <CommentBox incidentId={incidentId} fixedHypothesisId={node.id} />}
              </div>
            )}
            {canWrite && childType && (
              <button
                type="button"
                className="text-xs font-medium text-sky-700 hover:underline"
                onClick={() => setAdding(true)}
              >
                {H.add(humanize(childType))}
              </button>
            )}
          </div>
        )}
      </div>
      {expanded && node.children.length > 0 && (
        <ul className="space-y-2 border-l border-slate-200 pl-6">
          {node.children.map((child) => (
            <HypothesisNodeView
              key={child.id}
              incidentId={incidentId}
              node={child}
              canWrite={canWrite}
              commentsOpen={commentsOpen}
            />
          ))}
        </ul>
      )}
      {adding && childType && (
        <CreateHypothesisModal
          incidentId={incidentId}
          parentId={node.id}
          type={childType}
          onClose={() => setAdding(false)}
        />
      )}
      <Modal open={deleting} onOpenChange={setDeleting} title={H.deleteTitle} description={H.deleteBody}>
        <ModalFooter>
          <Button variant="secondary" onClick={() => setDeleting(false)}>
            {INCIDENT_UI_TEXTS.form.cancel}
          </Button>
          <Button
            variant="danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate(undefined, { onSuccess: () => setDeleting(false) })}
          >
            {H.delete}
          </Button>
          <Button
            onClick={() => {
              setStatus(HYPOTHESIS_DISPROVE_STATUS);
              setDeleting(false);
            }}
          >
            {INCIDENT_MESSAGES.disprove}
          </Button>
        </ModalFooter>
      </Modal>
    </li>
  );
}
