import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Two single-page apps from one build: the member area at "/" and the admin area at "/admin/".
export default defineConfig({
  plugins: [react(), precompress()],
  base: '/',
  resolve: { alias: { '@': here('./src') } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      input: { member: here('./index.html'), admin: here('./admin/index.html') },
    },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/admin/api': 'http://127.0.0.1:8080',
      '/member_data': 'http://127.0.0.1:8080',
      '/admin/data': 'http://127.0.0.1:8080',
      '/data': 'http://127.0.0.1:8080',
    },
  },
});
