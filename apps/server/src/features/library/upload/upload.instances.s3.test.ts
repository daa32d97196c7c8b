import { uploadsAcrossInstances } from './upload.instances.suite';

uploadsAcrossInstances('s3');
