import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// A lazily loaded part (the chat panel) can take over a second to import while the rest of the
// suite runs beside it; a wait for what a test checks gives it that long before failing.
configure({ asyncUtilTimeout: 5000 });
