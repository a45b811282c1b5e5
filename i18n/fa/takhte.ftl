## Takhte — Persian (فارسی)

app-name = تخته

## Games
game-chess = شطرنج
game-dice-chess = شطرنج تاسی
game-draughts = دامه‌ی ترکی
game-mine-chess = شطرنج مین‌یاب
game-chess-blurb = همان شطرنج کلاسیک، طبق قوانین فیده.
game-dice-chess-blurb = یک شاه و پانزده سرباز؛ تاس تعیین می‌کند سرباز چطور حرکت کند.
game-draughts-blurb = حرکت‌های مستقیم، شاه‌های دوربرد و زدن بیشترین مهره‌ی ممکن.
game-mine-chess-blurb = شطرنج روی صفحه‌ی ۸×۱۰ با چهار مین که در مه پنهان‌اند.

## Home
exit-title = از تخته خارج می‌شوید؟
exit-yes = خروج
exit-no = ماندن
home-continue = ادامه
home-continue-line = { $moves }، { $state }
home-new-game = بازی جدید
home-saved-games = بازی‌های ذخیره‌شده
home-settings = تنظیمات
home-rules = قوانین
home-statistics = آمار
home-tagline = چهار بازی، یک تخته

## New game
new-game-title = بازی جدید
new-game-opponent = حریف
opponent-computer = بازی با رایانه
opponent-two-players = دو نفره روی یک دستگاه
new-game-level = سطح
level-n = سطح { $n }
level-rating = سطح { $n } · ریتینگ حدود { $rating }
new-game-play-as = رنگ شما
new-game-time = کنترل زمان
time-none = بدون ساعت
time-none-inline = بدون ساعت
new-game-layout = صفحه در بازی دو نفره
layout-rotate = چرخاندن صفحه در هر نوبت
layout-face-to-face = رودررو (تبلت روی میز)
layout-fixed = صفحه ثابت بماند
new-game-start = شروع
new-game-dice-note = رایانه با سیاه بازی می‌کند؛ تاس شروع تعیین می‌کند چه کسی اول بازی کند.

## Sides and pieces
side-white = سفید
side-black = سیاه
piece-king = شاه
piece-queen = وزیر
piece-rook = رخ
piece-bishop = فیل
piece-knight = اسب
piece-pawn = سرباز
piece-man = مهره
piece-dama-king = شاه

## Board
button-back = بازگشت
button-undo = برگرداندن
button-redo = ازنو
button-hint = راهنمایی
button-flip = چرخاندن صفحه
button-resign = تسلیم
button-offer-draw = پیشنهاد تساوی
button-accept-draw = پذیرفتن تساوی
button-decline-draw = رد کردن
button-roll = انداختن تاس
button-more = بیشتر
button-sapper = مین‌روبی
captured-title = مهره‌های زده‌شده
lost-to-mines = منفجر‌شده با مین
mines-left = مین‌های روی صفحه: { $n }، پنهان: { $hidden }
moves-title = حرکت‌ها
die-waiting = تاس، هنوز انداخته نشده
die-face = تاس { $face }: { $name }
face-name-1 = سربازگونه
face-name-2 = رخ‌گونه
face-name-3 = اسب‌گونه
face-name-4 = فیل‌گونه
face-name-5 = شاه‌گونه
face-name-6 = وزیرگونه
start-roll = تاس شروع: سفید { $white }، سیاه { $black }
promotion-title = ترفیع به
clock-paused = متوقف
save-failed = بازی ذخیره نشد؛ پس از حرکت بعدی دوباره تلاش می‌شود.

## Status line
status-your-turn = نوبت شماست
status-thinking = رایانه فکر می‌کند…
status-turn = نوبت { $side }
status-check = شاه { $side } کیش است
status-roll-or-king = { $side }: تاس بیندازید یا شاه را حرکت دهید
status-roll-first = برای حرکت سرباز، اول تاس بیندازید
status-choose-pawn = تاس { $side } { $face } آمد ({ $name })؛ سربازی را انتخاب کنید
status-king-only = برای { $side } سربازی نمانده؛ شاه را حرکت دهید
status-empty-roll = با تاس { $face } حرکتی ممکن نیست؛ نوبت عوض شد
status-must-capture = { $count ->
    [one] زدن اجباری است؛ باید یک مهره بزنید
   *[other] زدن اجباری است؛ باید { $n } مهره بزنید
}
status-promoted-king = مهره‌ی { $owner } شاه شد
status-continue-capture = با همان مهره به زدن ادامه دهید
status-choose-promotion = مهره‌ی ترفیع را انتخاب کنید
status-mine-destroyed = { $what } { $owner } با مین منفجر شد
status-fog-lifted = مه کنار رفت
status-draw-offered = { $side } پیشنهاد تساوی داد
status-draw-declined = پیشنهاد تساوی رد شد
status-hint-roll = راهنمایی: تاس بیندازید
status-illegal = این حرکت مجاز نیست
status-aborted = بازی لغو شد؛ بی‌نتیجه
status-game-over = { $result }: { $reason }

## Results
result-white = سفید برد
result-black = سیاه برد
result-draw = تساوی
result-you-win = شما بردید
result-you-lose = شما باختید
reason-checkmate = کیش و مات
reason-stalemate = پات
reason-repetition = تکرار سه‌باره
reason-fifty-moves = قانون پنجاه حرکت
reason-insufficient-material = مهره‌ی ناکافی برای مات
reason-no-pieces = مهره‌ای باقی نمانده
reason-no-moves = حرکتی باقی نمانده
reason-lone-man = یک مهره‌ی تنها در برابر چند مهره
reason-one-piece-each = یک مهره در برابر یک مهره
reason-only-kings = فقط دو شاه باقی مانده
reason-mine-exposed-king = شاه با انفجار مین بی‌دفاع ماند
reason-resignation = تسلیم
reason-agreement = تساوی با توافق
reason-time = اتمام وقت
reason-time-insufficient-material = وقت تمام شد، اما حریف امکان مات کردن نداشت
# The result sheet's line under the result, on its own (capitalised).
end-checkmate = کیش و مات
end-stalemate = پات
end-repetition = تکرار سه‌باره
end-fifty-moves = قانون پنجاه حرکت
end-insufficient-material = مهره‌ی ناکافی برای مات
end-no-pieces = مهره‌ای باقی نمانده
end-no-moves = حرکتی باقی نمانده
end-lone-man = یک مهره‌ی تنها در برابر چند مهره
end-one-piece-each = یک مهره در برابر یک مهره
end-only-kings = فقط دو شاه باقی مانده
end-mine-exposed-king = شاه با انفجار مین بی‌دفاع ماند
end-resignation = با تسلیم
end-agreement = تساوی با توافق
end-time = وقت تمام شد
end-time-insufficient-material = وقت تمام شد، اما حریف امکان مات کردن نداشت
end-abandoned = حریف بازی را ترک کرد
end-aborted = پیش از آنکه هر دو طرف حرکت کنند لغو شد؛ بی‌نتیجه
result-aborted = بازی لغو شد
saved-aborted = پیش از حرکت هر دو طرف لغو شد
game-over-title = پایان بازی
game-over-rematch = بازی دوباره
game-over-review = مرور بازی
game-over-home = خانه

## Review
review-title = مرور بازی
review-first = حرکت اول
review-previous = حرکت قبلی
review-next = حرکت بعدی
review-last = حرکت آخر
review-position =
    { $move }
    { $n } از { $total }
review-start = پیش از حرکت اول

## Saved games
saved-title = بازی‌های ذخیره‌شده
saved-empty = هنوز بازی ذخیره‌شده‌ای ندارید.
saved-resume = ادامه
saved-delete = حذف
saved-damaged = این بازی ذخیره‌شده آسیب دیده است و باز نمی‌شود.
saved-moves = { $n } حرکت
saved-vs-computer = با رایانه، سطح { $n }
saved-two-players = دو نفره
saved-to-move = نوبت { $side }

## Settings
settings-title = تنظیمات
settings-language = زبان
lang-fa = فارسی
lang-en = English
settings-theme = طرح صفحه
theme-classic = کلاسیک
theme-green = سبز
theme-blue = آبی
settings-sound = صدا
settings-legal-moves = نمایش حرکت‌های مجاز
settings-coordinates = مختصات صفحه
settings-animation = سرعت انیمیشن
anim-off = خاموش
anim-fast = سریع
anim-normal = معمولی
anim-slow = آهسته
settings-rotation = صفحه در بازی دو نفره
settings-on = روشن
settings-off = خاموش

## Statistics
stats-title = آمار
stats-empty = هنوز بازی تمام‌شده‌ای ندارید.
stats-wins = برد
stats-draws = تساوی
stats-losses = باخت
stats-vs-computer = با رایانه، سطح { $n }
stats-two-players = دو نفره (نتایج سفید)

## Rules
rules-title = قوانین
rules-chess =
    هر طرف یک شاه، یک وزیر، دو رخ، دو فیل، دو اسب و هشت سرباز دارد. سفید بازی را شروع می‌کند.
    برای بردن، شاه حریف را کیش و مات کنید: یعنی شاه زیر حمله باشد و هیچ راه فراری نداشته باشد. هیچ حرکتی مجاز نیست که پس از آن شاه خودتان کیش باشد.
    قلعه‌رفتن: شاه دو خانه به سمت رخ می‌رود و رخ از روی شاه می‌پرد و کنار آن می‌ایستد؛ به شرط آنکه شاه و آن رخ هنوز حرکت نکرده باشند، خانه‌های بین آن‌ها خالی باشد، شاه کیش نباشد و از خانه‌ای که زیر حمله است نگذرد و در چنین خانه‌ای هم فرود نیاید.
    سربازی را که تازه دو خانه جلو رفته است، می‌توان آن‌پاسان زد؛ اما فقط در حرکت بلافاصله بعد. سربازی که به ردیف آخر برسد، به انتخاب شما به وزیر، رخ، فیل یا اسب ترفیع می‌یابد.
    تساوی: پات، تکرار سه‌باره‌ی یک وضعیت، قانون پنجاه حرکت (پنجاه حرکت از هر طرف بدون زدن مهره و بدون حرکت سرباز)، یا مهره‌ی ناکافی برای مات.
rules-dice-chess =
    هر طرف یک شاه و پانزده سرباز دارد. هر دو بازیکن تاس می‌اندازند؛ هر کس عدد بزرگ‌تری بیاورد، بازی را شروع می‌کند و اگر برابر بیاید، دوباره می‌اندازند.
    در نوبت خود یا شاه را بدون انداختن تاس یک خانه حرکت دهید، یا تاس بیندازید و یکی از سرباز‌ها را با قدرتی که تاس نشان می‌دهد حرکت دهید. این قدرت فقط برای همان یک حرکت است.
    عدد ۱ سربازگونه است (یک خانه رو به جلو، یا زدن مورب رو به جلو)؛ ۲ رخ‌گونه، ۳ اسب‌گونه، ۴ فیل‌گونه، ۵ شاه‌گونه و ۶ وزیرگونه. عدد‌های ۲ تا ۶ در همه‌ی جهت‌های آن مهره، حتی رو به عقب، حرکت می‌کنند و حرکت رخ‌گونه، فیل‌گونه و وزیرگونه حداکثر چهار خانه است.
    حرکت اسب‌گونه نباید کیش بدهد. سرباز هیچ‌وقت ترفیع نمی‌یابد و هیچ مهره‌ای شاه را نمی‌زند؛ دو شاه هم هرگز کنار هم قرار نمی‌گیرند.
    اگر با این تاس هیچ حرکت سربازی ممکن نباشد، نوبت عوض می‌شود؛ اما اگر در همان لحظه شاه شما کیش باشد، بازی را باخته‌اید. کیش و مات یعنی برد؛ اگر فقط دو شاه باقی بمانند، بازی تساوی است.
rules-draughts =
    مهره‌ها یک خانه به جلو، چپ یا راست حرکت می‌کنند و هرگز به عقب یا مورب نمی‌روند. مهره با پریدن از روی مهره‌ی حریف که کنارش است و نشستن در خانه‌ی خالی پشت آن، آن را می‌زند.
    مهره‌ای که حرکتش را در آخرین ردیف سمت حریف تمام کند، شاه می‌شود. شاه در امتداد ردیف یا ستون به هر تعداد خانه‌ی خالی که بخواهد حرکت می‌کند، از هر فاصله‌ای می‌زند و در هر خانه‌ی خالی پشت مهره‌ی زده‌شده می‌نشیند.
    زدن اجباری است و مهره تا وقتی بتواند، باید به زدن ادامه دهد. باید بیشترین مهره را بزنید. شاه بین دو پرش نمی‌تواند ۱۸۰ درجه برگردد.
    اگر مهره یا حرکتی برایتان نماند، یا فقط یک مهره‌ی ساده در برابر دو مهره یا بیشتر داشته باشید، می‌بازید. اگر هر طرف فقط یک مهره داشته باشد، بازی تساوی است؛ تکرار سه‌باره‌ی یک وضعیت هم تساوی است.
rules-mine-chess =
    شطرنج روی صفحه‌ای با ۸ ستون و ۱۰ ردیف. ردیف‌های ۴ تا ۷ زیر مه است و چهار مین در آن پنهان شده است.
    وقتی مهره‌ای در خانه‌ای فرود می‌آید، آن خانه و خانه‌های مه‌گرفته‌ی اطرافش آشکار می‌شوند و عدد هر خانه نشان می‌دهد چند مین در همسایگی آن است. وقتی همه‌ی مین‌ها پیدا شوند یا از بین بروند، مه کنار می‌رود.
    مهره‌ای که روی مین فرود بیاید، با مین منفجر می‌شود و مین هم از بین می‌رود. شاه مین را بی‌خطر برمی‌دارد (مین‌روب شاهی). سرباز می‌تواند به‌جای حرکت، خانه‌ی جلوی خود را از مین پاک کند؛ به این کار مین‌روبی می‌گویند.
    اگر مین مهره‌ی شما را منفجر کند و با این انفجار شاه شما کیش شود، بلافاصله می‌بازید. ترفیع سرباز همیشه به وزیر است؛ آن‌پاسان و قانون پنجاه حرکت در این بازی وجود ندارد.

## آنلاین
home-play-online = بازی آنلاین با دوستان
saved-online = آنلاین
online-title = بازی آنلاین
online-no-server = هنوز سروری برای بازی تعیین نشده است
online-intro-title = بازی با دیگران
online-intro = با دوستتان روی گوشی دیگری یا در مرورگر بازی کنید، یا با کسی هم‌سطح خودتان. بازی‌ها روی یک سرور بازی تخته نگه داشته می‌شوند: نشانی یک سرور را در زیر بنویسید (سرور یک دوست، یک باشگاه یا سرور خودتان) و بعد نام خودتان را.
online-server-placeholder = chess.example.org
online-server = نشانی سرور
online-connect = اتصال
online-your-name = نام نمایشی شما
online-name-placeholder = حریف این نام را می‌بیند
online-save = ذخیره
online-create = ساختن بازی
online-lobby = بازی‌های باز
online-join-code = پیوستن با کد یا پیوند دعوت
online-code-placeholder = کد یا پیوند
online-join = پیوستن
online-invited = به یک بازی دعوت شده‌اید
online-invited-by = { $name } شما را به یک بازی دعوت کرده است
online-invited-details = { $game }، { $clock }: شما با { $side } بازی می‌کنید
online-invited-details-rated = { $game }، { $clock }، بازی با ریتینگ: شما با { $side } بازی می‌کنید
online-invited-name = نامی که حریف شما می‌بیند:
online-invited-join = پیوستن به بازی
online-in-progress = بازی‌های آنلاین شما
online-open = باز کردن
online-create-title = ساختن بازی آنلاین
online-which-game = بازی
online-your-colour = رنگ شما
online-colour-random = تصادفی
online-who-can-join = چه کسی می‌تواند بپیوندد
online-private = فقط کسی که کد دعوت را دارد
online-public = همه، از فهرست بازی‌های باز
online-create-button = ساختن
online-lobby-title = بازی‌های باز
online-refresh = تازه‌سازی
online-lobby-empty = فعلاً کسی منتظر حریف نیست. بازی‌ای بسازید تا دیگران این‌جا ببینندش.
online-lobby-line = { $name }، { $clock }، رنگ شما: { $side }
online-waiting-title = در انتظار دوستتان
online-waiting-line = { $game }، { $clock }، رنگ شما: { $side }. منتظر پیوستن دوستتان هستیم…
online-invite-code = کد دعوت
online-invite-link = پیوند دعوت
online-share-help = کد یا پیوند را برای دوستتان بفرستید. به محض پیوستن او بازی شروع می‌شود.
online-copy-link = کپی پیوند
online-send-invite = ارسال دعوت…
online-invite-chooser = دعوت از دوست
online-link-copied = کپی شد. آن را در پیامی برای دوستتان بچسبانید.
online-invite-message = بیا در برنامه‌ی تخته با هم { $game } بازی کنیم: { $link } (کد دعوت: { $code })
online-cancel-game = لغو بازی
online-claim-win = اعلام برد
online-abort = لغو بازی
online-anonymous = بازیکن
online-you = { $name } (شما)
online-conn-short-connected = متصل
online-conn-short-plain = متصل، رمزگذاری‌نشده
online-conn-short-connecting = در حال اتصال…
online-conn-short-offline = آفلاین
online-connected = متصل به { $server }
online-connected-plain = متصل به { $server } (رمزگذاری‌نشده)
online-encrypted = اتصال امن (رمزگذاری‌شده)
online-tls-wrong-name = گواهی امنیتی { $server } برای این نشانی معتبر نیست.
online-tls-expired = گواهی امنیتی { $server } منقضی شده است.
online-tls-self-signed = گواهی امنیتی { $server } را خودِ سرور امضا کرده و هیچ مرجعی آن را تأیید نکرده است؛ به آن اعتماد نمی‌شود.
online-tls-unknown = گواهی امنیتی { $server } از مرجعی است که این برنامه نمی‌شناسد.
online-tls-not-tls = { $server } اتصال رمزگذاری‌شده را نمی‌شناسد. نشانی را بررسی کنید (سرورِ بدون رمزگذاری ws:// می‌خواهد).
online-tls-needs-tls = { $server } فقط اتصال رمزگذاری‌شده می‌پذیرد: در نشانی wss:// بنویسید.
online-tls-other = اتصال رمزگذاری‌شده به { $server } برقرار نشد ({ $reason }).
online-connecting = در حال اتصال…
online-reconnecting = در حال اتصال دوباره…
online-offline = آفلاین: { $server } در دسترس نیست
online-row-title = { $game } با { $name }
online-row-waiting = در انتظار حریف
online-row-your-turn = نوبت شماست
online-row-their-turn = نوبت حریف است
online-waiting-opponent = در انتظار حریف
online-opponent-here = { $name } در بازی است
online-opponent-gone = { $name } بازی را ترک کرده است ({ $seconds } ثانیه)
online-opponent-left = { $name } بازی را ترک کرده است
online-creating = در حال ساختن بازی…
online-create-unreachable = { $server } در دسترس نیست. دوباره تلاش می‌کنیم…
online-cancel-create = انصراف
online-claim-in = { $seconds } ثانیه‌ی دیگر می‌توانید برد را اعلام کنید
online-rematch-sent = بازی دوباره را پیشنهاد دادید؛ منتظر پاسخ هستیم.
online-rematch-offered = { $name } بازی دوباره می‌خواهد.
status-waiting-opponent = در انتظار پیوستن حریف
status-sending = در حال فرستادن حرکت…
status-their-turn = نوبت حریف است
button-offer-draw-later = پیشنهاد تساوی پس از حرکت بعد
status-draw-offer-declined = پیشنهاد تساوی شما پذیرفته نشد
status-draw-offer-sent = تساوی را پیشنهاد دادید
status-draw-offer-received = حریف تساوی پیشنهاد می‌دهد
reason-abandoned = حریف بازی را ترک کرد
reason-aborted = بازی لغو شد
online-error-unknown-game = بازی‌ای با این کد پیدا نشد. کد را بررسی کنید و دوباره امتحان کنید.
online-error-game-full = هر دو جای این بازی پر شده است.
online-error-not-a-player = شما بازیکن این بازی نیستید.
online-error-not-your-turn = نوبت شما نیست.
online-error-out-of-step = بازی در این فاصله جلو رفته است؛ وضعیت فعلی‌اش را می‌بینید.
online-error-illegal-move = سرور این حرکت را نپذیرفت.
online-error-game-over = این بازی تمام شده است.
online-error-not-started = هنوز کسی به بازی نپیوسته است.
online-error-die = تاس را سرور می‌اندازد؛ اول تاس بیندازید.
online-error-no-draw-offer = پیشنهاد تساوی‌ای برای پاسخ دادن نیست.
online-error-draw-offer-too-soon = پس از حرکت بعدی می‌توانید دوباره پیشنهاد تساوی بدهید.
online-error-cannot-abort = بازی را فقط پیش از اولین حرکت هر دو طرف می‌شود لغو کرد.
online-error-cannot-claim = حریف هنوز به اندازه‌ی کافی دور نبوده است.
online-error-cannot-rematch = الان بازی دوباره ممکن نیست.
online-error-bad-settings = سرور این تنظیمات را نپذیرفت.
online-error-too-many-games = بازی‌های نیمه‌تمام شما زیاد است. اول یکی را تمام کنید.
online-error-rate-limited = درخواست‌ها زیاد است؛ کمی صبر کنید.
online-error-storage = سرور نتوانست این را ذخیره کند؛ چیزی از دست نرفت. دوباره امتحان کنید.
online-error-internal = سرور در انجام این کار به خطا خورد؛ چیزی تغییر نکرد. دوباره امتحان کنید.
online-error-protocol = نسخه‌ی این برنامه با سرور جور نیست. برنامه را به‌روز کنید.
online-error-client = سرور پیام برنامه را نفهمید؛ دوباره امتحان کنید.
online-error-too-many-connections = از شبکه‌ی شما اتصال‌های زیادی به این سرور باز است.
online-error-shutdown = سرور دارد دوباره راه می‌افتد؛ دوباره وصل می‌شویم…
online-error-closed = سرور اتصال را بست.
online-error-code-empty = اول کد دعوت را بنویسید.
online-error-code-length = کد دعوت شش حرف و رقم دارد.
online-error-code-character = این کد دعوت نیست: کدها از حروف بزرگ انگلیسی و رقم‌های ۲ تا ۹ ساخته می‌شوند.
online-error-address = با این نشانی نمی‌شود به سرور وصل شد. نشانی را این‌طور بنویسید: { "192.168.1.20:7878" }

## تماشاگران
online-live = بازی‌های زنده
online-watch = تماشا
online-live-title = بازی‌های زنده
online-live-empty = الان هیچ بازی عمومی‌ای در جریان نیست.
online-live-row-title = { $game }: { $white } در برابر { $black }
online-live-row-line = حرکت { $move }، { $spectators } تماشاگر
online-spectators-heading = تماشاگران
online-allow-spectators = تماشاگران می‌توانند بازی را ببینند
online-audience = بازی با تماشاگران: بازیکنِ نوبت، پیشنهادها را می‌بیند
online-audience-note = هر کس به بازی بپیوندد این را می‌بیند: حرکت‌های پیشنهادی تماشاگران با پیکان‌های کم‌رنگ به بازیکنی که نوبتش است نشان داده می‌شود.
online-spectators = { $n } تماشاگر
online-audience-game = بازی با تماشاگران، { $spectators }
online-watching-line = { $white } (سفید) در برابر { $black } (سیاه)
online-watching-title = تماشای { $game }
status-watching-turn = نوبت { $side }؛ حرکت پیشنهادی‌تان را بازی کنید
status-watching-rolled = تاس { $side } { $face } آمد؛ حرکت پیشنهادی‌تان را بازی کنید
status-watching-review = در حال مرور؛ برای بازگشت جلو بروید
crowd-item = { $move } — { $count }
list-separator = {"، "}
crowd-suggested = پیشنهادها: { $list }
crowd-played = { $move } بازی شد؛ { $matched } نفر از { $voters } تماشاگر همین را پیشنهاد داده بودند
online-error-no-spectators = بازیکنان این بازی اجازه‌ی تماشا نداده‌اند.
online-error-too-many-spectators = ظرفیت تماشاگران این بازی پر شده است.
online-error-not-watching = فقط تماشاگران حرکت پیشنهاد می‌دهند.
online-error-too-many-suggestions = پیشنهادتان را برای این حرکت بیش از اندازه عوض کرده‌اید.
online-error-duplicate-suggestion = همین حرکت را قبلاً پیشنهاد داده‌اید.

## تاریخ‌ها، فهرست‌ها و عنوان‌ها
date-gregorian = { $year }/{ $month }/{ $day } میلادی
date = { $day } { $month } { $year }
month-1 = فروردین
month-2 = اردیبهشت
month-3 = خرداد
month-4 = تیر
month-5 = مرداد
month-6 = شهریور
month-7 = مهر
month-8 = آبان
month-9 = آذر
month-10 = دی
month-11 = بهمن
month-12 = اسفند
saved-line = { $opponent }، { $moves }
saved-state-line = { $state }، { $date }
saved-result = { $result }: { $reason }
saved-review = مرور بازی
saved-damaged-title = بازی ذخیره‌شده
saved-damaged-details = پرونده‌ی { $file }: { $reason }
damage-unreadable = پرونده خوانده نمی‌شود
damage-empty = پرونده خالی است
damage-truncated = پرونده نیمه‌کاره مانده است
damage-not-json = این پرونده بازی ذخیره‌شده نیست
damage-newer = با نسخه‌ی تازه‌تری از تخته ذخیره شده است
damage-wrong-shape = پرونده یک بازی کامل ندارد
damage-replay = حرکت { $n } دیگر مجاز نیست
damage-position = وضعیت آغاز آن خوانده نمی‌شود
saved-details = جزئیات
saved-hide-details = پنهان کردن جزئیات
saved-delete-title = این بازی ذخیره‌شده پاک شود؟
saved-delete-body = دیگر نمی‌شود آن را برگرداند.
saved-delete-keep = نگه داشتن
stats-row-title = { $game }، { $mode }
stats-online = آنلاین
home-continue-title = ادامه‌ی { $game }
title-vs-computer = { $game }، { $level }
side-computer = { $side } (رایانه)
settings-move-letters = حرکت‌های شطرنج با حروف ({ "Nf3" })

side-word-white = سفید
side-word-black = سیاه
piece-word-king = شاه
piece-word-queen = وزیر
piece-word-rook = رخ
piece-word-bishop = فیل
piece-word-knight = اسب
piece-word-pawn = سرباز
piece-word-man = مهره
piece-word-dama-king = شاه
abort-title = بازی لغو شود؟
abort-note = بازی برای هر دو نفر تمام می‌شود، بی‌نتیجه.
resign-title = تسلیم می‌شوید؟
resign-keep = ادامه‌ی بازی

# هم‌رسانی بازی به صورت متن، و باز کردن بازی از متن.
button-share = هم‌رسانی بازی
button-share-short = هم‌رسانی
share-title = هم‌رسانی بازی
share-about-pgn = متن بازی به صورت PGN، که همه‌ی برنامه‌های شطرنج آن را می‌خوانند. آن را در پیامی بچسبانید یا در پرونده‌ای ذخیره کنید.
share-about-record = متن بازی، با وضعیت شروع و همه‌ی حرکت‌ها. تخته آن را با «باز کردن بازی از متن» در بازی‌های ذخیره‌شده دوباره باز می‌کند.
share-copy = کپی
share-save = ذخیره
share-close = بستن
share-copied = کپی شد. آن را در پیام یا برنامه‌ی دیگری بچسبانید.
share-send = ارسال…
share-send-failed = منوی هم‌رسانی گوشی باز نشد. به‌جای آن، متن را کپی کنید.
share-saved = در { $path } ذخیره شد.
share-disk-full = پرونده ذخیره نشد: حافظه‌ی دستگاه پر است.
share-save-failed = پرونده ذخیره نشد ({ $reason }).
io-error-permission = اجازه‌ی نوشتن در آن پوشه نیست
io-error-not-found = آن پوشه وجود ندارد
io-error-other = دستگاه اجازه‌ی نوشتن آن را نداد
import-open = باز کردن بازی از متن
import-title = باز کردن بازی
import-about = متن یک بازی را اینجا بچسبانید: PGN از هر برنامه‌ی شطرنج، یا بازی‌ای که از تخته هم‌رسانی شده است. بازی در آخرین حرکتش برای مرور باز می‌شود و در بازی‌های ذخیره‌شده می‌ماند.
import-placeholder = { "[Event \"…\"] 1. e4 e5 2. Nf3 Nc6 …" }
import-paste = چسباندن
import-go = باز کردن
import-error-empty = در این متن بازی‌ای پیدا نشد.
import-error-variant = «{ $name }» از بازی‌های تخته نیست.
import-error-position = وضعیت شروع (برچسب FEN) خوانده نمی‌شود.
import-error-unclosed = توضیحی با {"{"} یا شاخه‌ای با ( در متن بسته نشده است.
import-error-too-long = بازی بیش از حد بلند است: تخته بازی‌هایی تا { $max } حرکت را باز می‌کند.
import-error-move = حرکت { $move } در آن وضعیت مجاز نیست.

## حریف سریع، ریتینگ، صفحه‌ی بازیکن، جدول برترین‌ها، کد بازیابی
online-error-unknown-player = چنین بازیکنی پیدا نشد.
online-with-friend = بازی با دوست
online-rated = بازی با ریتینگ (نتیجه‌ی بازی ریتینگ هر دو بازیکن را تغییر می‌دهد)
quick-title = حریف سریع
quick-custom = بازی یا زمان دیگر…
quick-custom-seek = یافتن حریف با همین تنظیمات (با ریتینگ)
quick-looking = در جست‌وجوی حریف…
quick-cancel = لغو
quick-pool = { $game } { $clock }
quick-waiting-line = { $pool }، زمان انتظار { $time }
quick-held = چون بازی‌های با ریتینگ را پیش از پایان رها کرده‌اید، { $seconds } ثانیه بیشتر منتظر می‌مانید.
quick-needs-clock = برای یافتن حریف، زمان بازی را انتخاب کنید؛ حریف سریع همیشه با ساعت بازی می‌شود.
leaderboard-title = جدول برترین‌ها
leaderboard-empty = هنوز بازیکنی با ریتینگ قطعی در این بازی نیست.
leaderboard-you = جایگاه شما: { $place }، ریتینگ { $rating }
leaderboard-you-none = پس از چند بازی با ریتینگ، جایگاه شما هم در این جدول می‌آید.
player-title = صفحه‌ی بازیکن
player-recent = بازی‌های اخیر
player-no-games = این بازیکن هنوز هیچ بازی آنلاینی را تمام نکرده است.
player-loading = در حال دریافت…
player-kind-line = { $played } بازی: { $wins } برد، { $draws } مساوی، { $losses } باخت
player-recent-title = { $game } با { $opponent }
player-result-win = برد
player-result-draw = مساوی
player-result-loss = باخت
player-rated-line = { $result }، با ریتینگ
rating-provisional = { $rating }؟
rating-change = { $before } ← { $after } ({ $diff })
rating-yours = ریتینگ شما: { $change }
rating-both = سفید { $white }، سیاه { $black }
rating-unrated-aborted = بازی لغو شد؛ ریتینگ هیچ‌کس تغییر نکرد.
rating-unrated-same-opponent = این بازی در ریتینگ حساب نشد: امروز به اندازه‌ی کافی با همین حریف بازی با ریتینگ کرده‌اید.
recovery-title = کد بازیابی
recovery-warning = هر کس این کد را داشته باشد در تخته همان شماست: با آن، ریتینگ‌ها و بازی‌های شما را در گوشی دیگری دارد. آن را به کسی ندهید و جای امنی یادداشت کنید.
recovery-copy = کپی کد
recovery-enter-help = گوشی تازه گرفته‌اید؟ کد بازیابی گوشی قبلی را این‌جا وارد کنید تا همان بازیکن باشید. بازیکن فعلی این گوشی کنار می‌رود؛ اگر بعداً آن را می‌خواهید، اول کدش را یادداشت کنید.
recovery-placeholder = XXXX-XXXX-…
recovery-enter = استفاده از این کد
recovery-copied = کد کپی شد.
recovery-error-empty = کد بازیابی را بنویسید یا بچسبانید.
recovery-error-length = کد بازیابی ۲۸ حرف و رقم دارد.
recovery-error-character = این کد نویسه‌ای دارد که در کدهای بازیابی به کار نمی‌رود.
recovery-error-check = یکی از نویسه‌های این کد اشتباه نوشته شده است؛ دوباره نگاه کنید.
recovery-error-save = کد در این گوشی ذخیره نشد (حافظه پر است؟)؛ چیزی تغییر نکرد.
recovery-same = این همان کد بازیکن فعلی این گوشی است.
recovery-done = حالا در این گوشی همان بازیکن هستید؛ بازی‌هایتان از سرور می‌آید.
online-rating-of = ریتینگ { $rating }
