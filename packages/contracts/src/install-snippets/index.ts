export * from './constants.js';
export * from './lookout-chart.js';
export * from './gitops-charts.js';
export * from './snippets.js';
