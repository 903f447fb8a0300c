#include <QTest>
class TstMask : public QObject { Q_OBJECT };
QTEST_APPLESS_MAIN(TstMask)
#include "tst_mask.moc"
