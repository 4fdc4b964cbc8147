// The inbox page's entry (admin.html), built apart from the landing page (vite.admin.config.ts):
// none of its code or styles can join the landing page's chunks, whose first load stays as it is.
import './admin.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { InboxApp } from './InboxApp';

const root = document.getElementById('root');
if (!root) throw new Error('admin.html has no #root');
createRoot(root).render(
  <StrictMode>
    <InboxApp />
  </StrictMode>,
);
