import { LOGS_UI, type LogLine } from '@lookout/contracts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type PointerEvent as ReactPointerEvent } from 'react';
import { usePersistedColumnSizes, type LogColumn } from './column-sizes';
import { formatLogTime, labelPairs } from './log-format';

const HEADERS: { column: LogColumn; label: string }[] = [
  { column: 'time', label: 'Time' },
  { column: 'message', label: 'Message' },
  { column: 'labels', label: 'Labels' },
];

const SELECT_WIDTH = 36;

/**
 * The log lines (spec 3 sections 2.5 and 9): Time, Message, Labels, rows rendered only in view
 * (estimate 62 px, overscan 10), columns resized by dragging their edge and kept in local
 * storage. A checkbox per row selects lines for evidence.
 */
export function LogsTable({
  lines,
  selected,
  onToggle,
  emptyMessage,
}: {
  lines: LogLine[];
  selected: ReadonlySet<number>;
  onToggle: (index: number) => void;
  emptyMessage: string;
}) {
  const [sizes, resize] = usePersistedColumnSizes();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => LOGS_UI.rowEstimate,
    overscan: LOGS_UI.overscan,
  });
  const template = `${SELECT_WIDTH}px ${sizes.time}px ${sizes.message}px ${sizes.labels}px`;
  const width = SELECT_WIDTH + sizes.time + sizes.message + sizes.labels;

  const startResize = (column: LogColumn, event: ReactPointerEvent<HTMLSpanElement>) => {
    event.preventDefault();
    const startX = event.clientX;
    const startWidth = sizes[column];
    const move = (moved: PointerEvent) => resize(column, startWidth + moved.clientX - startX);
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };

  const items = virtualizer.getVirtualItems();
  // jsdom and the first paint measure nothing: show the first rows until the scroller has a size.
  const rows =
    items.length > 0 || lines.length === 0
      ? items
      : lines.slice(0, LOGS_UI.overscan * 2).map((_, index) => ({
          index,
          start: index * LOGS_UI.rowEstimate,
          key: index,
        }));

  return (
    <div
      ref={scroller}
      role="table"
      aria-label="Logs"
      aria-rowcount={lines.length + 1}
      className="min-h-0 flex-1 overflow-auto rounded-md border border-slate-200 bg-white"
    >
      <div role="rowgroup" className="sticky top-0 z-10 bg-slate-50" style={{ width }}>
        <div
          role="row"
          className="grid border-b border-slate-200 text-xs font-medium text-slate-600"
          style={{ gridTemplateColumns: template }}
        >
          <span role="columnheader" className="px-2 py-2">
            <span className="sr-only">Select</span>
          </span>
          {HEADERS.map(({ column, label }) => (
            <span key={column} role="columnheader" className="relative px-2 py-2" style={{ width: sizes[column] }}>
              {label}
              <span
                role="separator"
                aria-orientation="vertical"
                aria-label={`Resize ${label}`}
                aria-valuenow={sizes[column]}
                tabIndex={0}
                onPointerDown={(event) => startResize(column, event)}
                onKeyDown={(event) => {
                  if (event.key === 'ArrowRight') resize(column, sizes[column] + 20);
                  if (event.key === 'ArrowLeft') resize(column, sizes[column] - 20);
                }}
                className="absolute top-0 right-0 h-full w-1.5 cursor-col-resize bg-transparent hover:bg-sky-300"
              />
            </span>
          ))}
        </div>
      </div>
      {lines.length === 0 ? (
        <p role="status" className="p-6 text-center text-sm text-slate-500">
          {emptyMessage}
        </p>
      ) : (
        <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize(), width }}>
          {rows.map((item) => {
            const line = lines[item.index] as LogLine;
            const isSelected = selected.has(item.index);
            return (
              <div
                key={item.key}
                role="row"
                aria-selected={isSelected}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className={`absolute left-0 grid border-b border-slate-100 text-sm ${isSelected ? 'bg-sky-50' : ''}`}
                style={{ transform: `translateY(${item.start}px)`, gridTemplateColumns: template, width }}
              >
                <span role="cell" className="px-2 py-2">
                  <input
                    type="checkbox"
                    aria-label={`Select line ${item.index + 1}`}
                    checked={isSelected}
                    onChange={() => onToggle(item.index)}
                  />
                </span>
                <span role="cell" className="px-2 py-2 font-mono text-xs whitespace-nowrap text-slate-600">
                  {formatLogTime(line.timestamp)}
                </span>
                <span role="cell" className="px-2 py-2 font-mono text-xs break-all whitespace-pre-wrap">
                  {line.message}
                </span>
                <span role="cell" className="flex flex-wrap gap-1 px-2 py-2">
                  {labelPairs(line.labels).map((pair) => (
                    <span key={pair} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                      {pair}
                    </span>
                  ))}
                </span>
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
