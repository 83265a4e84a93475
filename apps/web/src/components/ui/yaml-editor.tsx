import { yaml } from '@codemirror/lang-yaml';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { clsx } from 'clsx';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

export interface YamlEditorProps {
  /** The text; outside changes (a reset, the form's edits) replace the editor's content. */
  value: string;
  onChange: (value: string) => void;
  readOnly?: boolean;
  /** Accessible name of the editing area. */
  label: string;
  /** Id of the text describing the problems, if any. */
  describedBy?: string | undefined;
  /** Height classes; a whole-document editor takes most of the window by default. */
  className?: string;
}

/**
 * A YAML editor (CodeMirror 6, YAML highlighting, line numbers, bracket matching, undo). The
 * view is created once and kept; React only feeds it outside changes, so typing never
 * re-creates it or moves the cursor.
 */
export function YamlEditor({ value, onChange, readOnly = false, label, describedBy, className }: YamlEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // Created on mount with the first value; later values arrive through the effect below.
  const initial = useRef({ value, readOnly, label, describedBy });
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const { value: doc, readOnly: locked, label: name, describedBy: described } = initial.current;
    const view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc,
        extensions: [
          basicSetup,
          yaml(),
          EditorState.readOnly.of(locked),
          EditorView.editable.of(!locked),
          EditorView.contentAttributes.of({
            'aria-label': name,
            ...(described ? { 'aria-describedby': described } : {}),
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
          EditorView.theme({
            '&': { fontSize: '12px', height: '100%' },
            '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
          }),
        ],
      }),
    });
    viewRef.current = view;
    return () => {
      view.destroy();
      viewRef.current = null;
    };
  }, []);

  useEffect(() => {
    const view = viewRef.current;
    if (!view) return;
    const current = view.state.doc.toString();
    if (current !== value) view.dispatch({ changes: { from: 0, to: current.length, insert: value } });
  }, [value]);

  return (
    <div
      ref={hostRef}
      data-testid="yaml-editor"
      className={clsx(
        'overflow-hidden rounded-md border border-slate-300 bg-white focus-within:border-sky-500 focus-within:ring-2 focus-within:ring-sky-500/30',
        className ?? 'h-[60vh] min-h-64',
      )}
    />
  );
}
