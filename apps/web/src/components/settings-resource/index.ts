export * from './settings-resource-list';
export * from './settings-resource-hooks';
