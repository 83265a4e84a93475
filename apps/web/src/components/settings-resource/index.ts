export * from './settings-resource-editor';
export * from './settings-resource-form';
export * from './settings-resource-hooks';
export * from './settings-resource-list';
export * from './settings-resource-tabs';
export * from './schedule-field';
export * from './delete-resource-dialog';
