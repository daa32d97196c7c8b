/* global WebUploader, jQuery */
/*
 * The upload button of ModStart's front end, reduced to the calls it makes on WebUploader 0.1.8
 * with jQuery (svue/components/UploadButton/uploader.js in ModStartCMS): `md5File`, then a JSON
 * `init` sent with the uploader's own `headers`, which tells `chunkUploaded`; a chunk is sent
 * when `chunk + 1 >= chunkUploaded`; `md5` is added to each chunk's form in `uploadBeforeSend`;
 * a non-zero code refuses the answer with its msg, and a msg with ShouldRetryUpload retries the
 * file. Loaded into a page by webuploader.e2e.ts. ModStart's wait for its patched image widget
 * (`_widgetImageData`) is left out: the stock WebUploader never sets it.
 */
(function () {
  var $ = jQuery;

  WebUploader.Uploader.register(
    { 'before-send': 'sendOrSkipChunk', 'before-send-file': 'hashAndInit' },
    {
      sendOrSkipChunk: function (block) {
        var task = $.Deferred();
        var send = block.chunk + 1 >= this.options.chunkUploaded;
        setTimeout(send ? task.resolve : task.reject, 0);
        return $.when(task);
      },
      hashAndInit: function (file) {
        var task = $.Deferred();
        var options = this.options;
        this.owner
          .md5File(file)
          .then(function (md5) {
            file.fileMd5 = md5;
            $.ajax({
              type: 'POST',
              url: options.server,
              headers: options.headers,
              data: JSON.stringify({
                action: 'init',
                name: file.name,
                type: file.type,
                lastModifiedDate: String(file.lastModifiedDate),
                size: file.size,
                md5: md5,
              }),
              contentType: 'application/json',
              dataType: 'json',
            })
              .done(function (res) {
                if (res.code) {
                  options.onError(res.msg);
                  task.reject();
                  return;
                }
                options.chunkUploaded = res.data.chunkUploaded;
                task.resolve();
              })
              .fail(function () {
                options.onError('上传出错');
                task.reject();
              });
          })
          .fail(function (error) {
            options.onError('上传出错:' + error);
            task.reject();
          });
        return $.when(task);
      },
    },
  );

  /**
   * `options`: server, headers (fixed from here on, as ModStart builds them from the token
   * cookie), chunkSize, sizeLimit, extensions, callback({name, size, path, fullPath}), onError.
   */
  window.modstartUploadButton = function (selector, options) {
    var $me = $(selector);
    $me.html('<div class="picker">选择文件</div><ul class="webuploader-list"></ul>');
    var $list = $me.find('.webuploader-list');
    var uploader = WebUploader.create({
      auto: true,
      server: options.server,
      pick: { id: $me.find('.picker'), multiple: true },
      fileSingleSizeLimit: options.sizeLimit,
      chunked: true,
      chunkSize: options.chunkSize,
      chunkRetry: 5,
      threads: 1,
      accept: { extensions: options.extensions },
      formData: {},
      headers: options.headers,
      duplicate: false,
      onError: options.onError,
    });
    uploader.on('fileQueued', function (file) {
      var $item = $('<li><div class="progress-bar"></div><span class="name"></span></li>');
      $item.attr('id', file.id);
      $item.find('.name').text(file.name);
      $list.append($item);
    });
    uploader.on('uploadProgress', function (file, percentage) {
      $('#' + file.id + ' .progress-bar').css('width', percentage * 100 + '%');
    });
    uploader.on('uploadBeforeSend', function (block, data) {
      data.md5 = block.file.fileMd5;
    });
    uploader.on('uploadAccept', function (block, response, setReason) {
      if (response.code) {
        setReason(response.msg);
        return false;
      }
      return true;
    });
    uploader.on('uploadSuccess', function (file, res) {
      this.removeFile(file);
      $('#' + file.id).addClass('done');
      options.callback({
        name: res.data.data.filename,
        size: res.data.data.size,
        path: res.data.path,
        fullPath: res.data.fullPath,
      });
    });
    uploader.on('uploadError', function (file, reason) {
      if (reason && reason.indexOf('ShouldRetryUpload') >= 0) {
        this.retry(file);
        return;
      }
      this.removeFile(file);
      options.onError('Upload Error : ' + reason);
    });
    return uploader;
  };
})();
