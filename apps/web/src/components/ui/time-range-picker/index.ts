export * from '@/components/ui/time-range-picker/recent-time-ranges';
export * from '@/components/ui/time-range-picker/time-range-fns';
export * from '@/components/ui/time-range-picker/time-range-picker';
export * from '@/components/ui/time-range-picker/use-time-range-params';
