import type { IncidentDetail } from '../api/incident-types';
import { CommentBox, CommentRow } from './comment-box';

/** The Comments tab: every comment of the incident, oldest first, and the comment form. */
export function CommentsTab({ incident, canWrite }: { incident: IncidentDetail; canWrite: boolean }) {
  const comments = incident.hypotheses
    .flatMap((hypothesis) => hypothesis.comments)
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  const ordered = [...incident.hypotheses].sort((a, b) => (a.type === 'root' ? -1 : b.type === 'root' ? 1 : 0));
  return (
    <div className="space-y-4">
      <ul className="space-y-3" aria-label="Comments">
        {comments.map((comment) => (
          <CommentRow key={comment.id} comment={comment} />
        ))}
      </ul>
      {canWrite && <CommentBox incidentId={incident.id} hypotheses={ordered} />}
    </div>
  );
}
