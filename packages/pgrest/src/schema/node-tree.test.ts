import { describe, expect, it } from 'vitest';
import { parseNodeTree, viewColumnOrigins } from './node-tree.js';

describe('view column origins', () => {
  it('reads resorigtbl/resorigcol of the top-level target list only', () => {
    const action =
      '({QUERY :commandType 1 :rtable ({RANGETBLENTRY :eref {ALIAS :aliasname c :colnames ("id" "name")} :relid 16385}) ' +
      ':cteList ({COMMONTABLEEXPR :ctequery {QUERY :targetList ({TARGETENTRY :resno 1 :resname x :resorigtbl 999 :resorigcol 9 :resjunk false})}}) ' +
      ':targetList ({TARGETENTRY :expr {VAR :varno 1 :varattno 1} :resno 1 :resname id :ressortgroupref 0 :resorigtbl 16385 :resorigcol 1 :resjunk false} ' +
      '{TARGETENTRY :expr {FUNCEXPR :args ({CONST :constvalue 4 [ 1 0 0 0 0 0 0 0 ]})} :resno 2 :resname \\(odd\\)\\ name :resorigtbl 0 :resorigcol 0 :resjunk false} ' +
      '{TARGETENTRY :expr {VAR :varno 1 :varattno 2} :resno 3 :resname "quoted name" :resorigtbl 16385 :resorigcol 2 :resjunk false}) :onConflict <>})';
    expect(viewColumnOrigins(action)).toEqual([
      { resno: 1, relationOid: 16385, attnum: 1 },
      { resno: 3, relationOid: 16385, attnum: 2 },
    ]);
  });

  it('returns nothing for text it does not understand', () => {
    expect(viewColumnOrigins('not a tree')).toEqual([]);
    expect(parseNodeTree('({QUERY')).toBeNull();
  });
});
