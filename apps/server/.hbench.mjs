import crypto from 'node:crypto';
import { createMD5, createSHA256 } from 'hash-wasm';
const buf = crypto.randomBytes(5*1024*1024);
const N = 60; // 300 MiB
function t(name, fn){ const s=performance.now(); fn(); const d=performance.now()-s; console.log(name, (N*5/ (d/1000)).toFixed(0),'MiB/s'); }
t('node md5', ()=>{ const h=crypto.createHash('md5'); for(let i=0;i<N;i++) h.update(buf); h.digest('hex'); });
t('node sha256', ()=>{ const h=crypto.createHash('sha256'); for(let i=0;i<N;i++) h.update(buf); h.digest('hex'); });
const m = await createMD5(); const s2 = await createSHA256();
t('wasm md5', ()=>{ m.init(); for(let i=0;i<N;i++) m.update(buf); m.digest('hex'); });
t('wasm sha256', ()=>{ s2.init(); for(let i=0;i<N;i++) s2.update(buf); s2.digest('hex'); });
m.init(); m.update(buf); const st = m.save(); console.log('md5 state bytes', st.length);
s2.init(); s2.update(buf); console.log('sha state bytes', s2.save().length);
