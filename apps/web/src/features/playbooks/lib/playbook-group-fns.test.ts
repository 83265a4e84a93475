import { describe, expect, it } from 'vitest';
import { groupByCategory, playbookTitle } from './playbook-group-fns';

describe('groupByCategory', () => {
  it("groups cards by category with 'Other' last and titles sorted", () => {
    const groups = groupByCategory([
      { id: '1', name: 'b', title: 'Restart', category: 'Kubernetes' },
      { id: '2', name: 'a', title: null, category: null },
      { id: '3', name: 'c', title: 'Backup', category: 'Databases' },
      { id: '4', name: 'd', title: 'Alpha', category: 'Kubernetes' },
      { id: '5', name: 'e', title: 'Echo', category: ' ' },
    ]);
    expect(groups.map((group) => group.category)).toEqual(['Databases', 'Kubernetes', 'Other']);
    expect(groups[1]!.playbooks.map((playbook) => playbook.id)).toEqual(['4', '1']);
    expect(groups[2]!.playbooks.map(playbookTitle)).toEqual(['a', 'Echo']);
  });
});
