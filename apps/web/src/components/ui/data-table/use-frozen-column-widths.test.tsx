import { render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useFrozenColumnWidths } from '@/components/ui/data-table/use-frozen-column-widths';

/** Header cell widths a browser would measure, by header text (jsdom has no layout). */
let widths: Record<string, number> = {};
const rectDescriptor = Object.getOwnPropertyDescriptor(Element.prototype, 'getBoundingClientRect');

beforeEach(() => {
  widths = { Name: 180, Status: 120, Latency: 90 };
  Element.prototype.getBoundingClientRect = function (this: Element) {
    const width = this.tagName === 'TH' ? (widths[this.textContent] ?? 0) : 0;
    return DOMRect.fromRect({ width, height: 35 });
  };
});
afterEach(() => {
  if (rectDescriptor) Object.defineProperty(Element.prototype, 'getBoundingClientRect', rectDescriptor);
});

function Table({ columns, enabled = true, ready = true }: { columns: string[]; enabled?: boolean; ready?: boolean }) {
  const tableRef = useRef<HTMLTableElement>(null);
  const frozen = useFrozenColumnWidths({ tableRef, enabled, columnIds: columns, ready });
  return (
    <>
      <output aria-label="widths">{frozen ? frozen.join(',') : 'automatic'}</output>
      <table ref={tableRef}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column}>{column}</th>
            ))}
          </tr>
        </thead>
      </table>
    </>
  );
}

const shown = () => screen.getByLabelText('widths').textContent;

describe('useFrozenColumnWidths', () => {
  it('measures the header cells once the rows are ready, and keeps those widths', () => {
    const view = render(<Table columns={['Name', 'Status']} ready={false} />);
    expect(shown()).toBe('automatic');
    view.rerender(<Table columns={['Name', 'Status']} />);
    expect(shown()).toBe('180,120');

    // Wider content later (other rows scrolled in) does not move the columns.
    widths = { Name: 400, Status: 20 };
    view.rerender(<Table columns={['Name', 'Status']} />);
    expect(shown()).toBe('180,120');
  });

  it('measures again for a different set of columns', () => {
    const view = render(<Table columns={['Name', 'Status']} />);
    expect(shown()).toBe('180,120');
    view.rerender(<Table columns={['Name', 'Latency']} />);
    expect(shown()).toBe('180,90');
  });

  it('stays automatic when disabled or when a cell has no width', () => {
    const view = render(<Table columns={['Name', 'Status']} enabled={false} />);
    expect(shown()).toBe('automatic');
    view.rerender(<Table columns={['Name', 'Unknown']} />);
    expect(shown()).toBe('automatic');
  });
});
