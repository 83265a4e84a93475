// First: Zod's settings must be in place before the contracts create their schemas.
import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render Lookout into.');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
