import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// antd under jsdom is slow on a busy 2-core machine: give async queries room before failing.
configure({ asyncUtilTimeout: 10_000 });
