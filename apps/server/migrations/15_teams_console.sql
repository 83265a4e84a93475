-- Reserved migration slot; its owner replaces this line with the real migration.
SELECT 1;
