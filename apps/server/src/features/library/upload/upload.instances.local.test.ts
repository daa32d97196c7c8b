import { uploadsAcrossInstances } from './upload.instances.suite';

uploadsAcrossInstances('local');
