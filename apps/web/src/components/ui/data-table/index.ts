export * from '@/components/ui/data-table/data-table';
export * from '@/components/ui/data-table/data-table-features';
export * from '@/components/ui/data-table/data-table-pagination';
export * from '@/components/ui/data-table/data-table-skeleton';
export * from '@/components/ui/data-table/data-table-storage';
